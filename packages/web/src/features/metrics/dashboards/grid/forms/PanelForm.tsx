import { TextField } from '@mui/material';
import type { GridColumn, GridColumnInput, GridColumnType } from '@lantern/shared';
import type { ReactNode } from 'react';
import { capitalize } from '../../../../../lib/text/capitalize';
import type { Range } from '../gridApi';
import { FormShell } from './FormShell';
import { GridQueryTemplateField } from './GridQueryTemplateField';
import { useColumnFormBase } from './useColumnFormBase';

/** What the grid passes to a panel's form. */
export interface ColumnFormProps {
  projectId: number;
  dashId: string;
  column?: GridColumn;
  range: Range;
  gridQuery: string;
  editable: boolean;
  onClose: () => void;
}

/** The name, description and grid query template a panel form keeps (and its save). */
export const usePanelFormBase = (p: ColumnFormProps) => useColumnFormBase(p.projectId, p.dashId, p.column, p.onClose);

/**
 * The frame of every grid panel's form (chart, table, heatmap): the dialog titled "New chart
 * panel" / "Edit table panel", the panel's own fields, its name and description, `after` them what
 * only that kind has (the chart's legend and series styles), and the Advanced grid query template,
 * which every panel uses in a table row's dialog. Create / Save sends the panel with `params` once
 * they are `valid` and it has a name.
 */
export function PanelForm({
  type,
  form,
  base,
  params,
  valid,
  preview,
  children,
  after,
}: {
  type: GridColumnType;
  form: ColumnFormProps;
  base: ReturnType<typeof useColumnFormBase>;
  params: Pick<GridColumnInput, 'type' | 'params'>;
  valid: boolean;
  /** The live panel; undefined until there is a metric to show. */
  preview: ReactNode | undefined;
  children: ReactNode;
  after?: ReactNode;
}) {
  const label = type === 'promql' ? 'PromQL' : type;
  return (
    <FormShell
      title={`${form.column ? 'Edit' : 'New'} ${label} panel`}
      testId={`${type}-form`}
      editable={form.editable}
      isNew={!form.column}
      saving={base.saving}
      error={base.error}
      onSave={() => base.submit(params, valid)}
      onClose={form.onClose}
      preview={preview}
    >
      {children}
      <TextField
        size="small"
        label={`${capitalize(label)} name`}
        required
        value={base.name}
        onChange={(e) => base.setName(e.target.value)}
        error={!!base.nameError}
        helperText={base.nameError}
        slotProps={{ htmlInput: { 'data-testid': 'column-name' } }}
      />
      <TextField
        size="small"
        label="Description"
        value={base.description}
        onChange={(e) => base.setDescription(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'column-description' } }}
      />
      {after}
      {/* A table row's filter is Lantern's query language, which a PromQL query does not take. */}
      {type !== 'promql' && (
        <GridQueryTemplateField
          value={base.gridQueryTemplate}
          onChange={base.setGridQueryTemplate}
          what="panel"
          testId="panel-grid-query-template"
        />
      )}
    </FormShell>
  );
}
