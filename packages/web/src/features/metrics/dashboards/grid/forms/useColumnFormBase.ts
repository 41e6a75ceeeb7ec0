import type { GridColumn, GridColumnInput } from '@lantern/shared';
import { useState } from 'react';
import { useSaveColumn } from '../gridApi';
import { required } from './validation';

/**
 * Name, description, grid query template and the save call every panel form shares; `submit`
 * sends the panel when its own fields are `valid` and it has a name.
 */
export function useColumnFormBase(
  projectId: number,
  dashId: string,
  column: GridColumn | undefined,
  onClose: () => void,
) {
  const [name, setName] = useState(column?.name ?? '');
  const [description, setDescription] = useState(column?.description ?? '');
  const [gridQueryTemplate, setGridQueryTemplate] = useState(column?.gridQueryTemplate ?? '');
  const [submitted, setSubmitted] = useState(false);
  const save = useSaveColumn(projectId, dashId);
  const submit = (params: Pick<GridColumnInput, 'type' | 'params'>, valid: boolean) => {
    setSubmitted(true);
    if (!valid || required(name, 'Name')) return;
    const input = {
      ...params,
      name: name.trim(),
      description,
      gridQueryTemplate,
      width: column?.width ?? 0,
      height: column?.height ?? 0,
      xAxis: column?.xAxis ?? 0,
      yAxis: column?.yAxis ?? 0,
    } as GridColumnInput;
    save.mutate({ id: column?.id, input }, { onSuccess: onClose });
  };
  return {
    nameError: submitted ? required(name, 'Name') : undefined,
    name,
    setName,
    description,
    setDescription,
    gridQueryTemplate,
    setGridQueryTemplate,
    submitted,
    submit,
    saving: save.isPending,
    error: save.error?.message,
  };
}
