import TuneIcon from '@mui/icons-material/Tune';
import { Autocomplete, Button, Chip, Stack, TextField } from '@mui/material';
import { ALL_VALUE, variableParams, type DashboardVariable } from '@lantern/shared';
import { useEffect } from 'react';
import { useMetricAttrValues } from '../../metricsApi';
import type { Picked } from './variableState';

type Range = { time_gte: string; time_lt: string };

/**
 * The dashboard's variables as pickers above its tabs (issue 41): each offers its values (an
 * attribute's values in the range, or the fixed list) and All when the variable has it; several
 * may be picked when it is multi. Picking writes the address (`var-name`), which every panel reads.
 * A variable with a filter (`where service.name = $service`) offers the values that the picks of
 * the variables before it keep, asked again when they change; a pick no longer offered drops.
 */
export function VariablePickers(props: {
  projectId: number;
  variables: DashboardVariable[];
  picked: ReadonlyMap<string, Picked>;
  range: Range;
  onPick: (name: string, value: Picked, opts?: { replace: boolean }) => void;
  onEdit?: () => void;
}) {
  if (props.variables.length === 0 && !props.onEdit) return null;
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center' }}
      data-testid="variable-pickers"
    >
      {props.variables.map((v, i) => (
        <VariablePicker
          key={v.name}
          projectId={props.projectId}
          variable={v}
          before={picksBefore(props.variables, i, props.picked)}
          picked={props.picked.get(v.name) ?? 'all'}
          range={props.range}
          onPick={(value, opts) => props.onPick(v.name, value, opts)}
        />
      ))}
      {props.onEdit && (
        <Button size="small" startIcon={<TuneIcon />} onClick={props.onEdit} data-testid="edit-variables">
          {props.variables.length ? 'Variables' : 'Add variable'}
        </Button>
      )}
    </Stack>
  );
}

function VariablePicker({
  projectId,
  variable: v,
  before,
  picked,
  range,
  onPick,
}: {
  projectId: number;
  variable: DashboardVariable;
  /** The picks of the variables before this one (`var`), which its filter may name. */
  before: string[];
  picked: Picked;
  range: Range;
  onPick: (value: Picked, opts?: { replace: boolean }) => void;
}) {
  const attrValues = useMetricAttrValues(
    projectId,
    { ...range, metric: [v.metric], attr_key: v.attr, ...(v.query.trim() ? { query: v.query, var: before } : {}) },
    v.kind === 'attribute',
  );
  const values = v.kind === 'list' ? v.values : (attrValues.data?.items.map((i) => i.value) ?? []);
  // An attribute's variable without All shows its first value once the values are known.
  const first = values[0];
  const needsFirst = v.kind === 'attribute' && !v.includeAll && picked === 'all' && first !== undefined;
  useEffect(() => {
    if (needsFirst) onPick([first], { replace: true });
  }, [needsFirst, first, onPick]);
  // A filtered variable (its values follow the picks before it) drops what is no longer offered:
  // the rest stay, else its default (All, or the first value once known).
  const offered = v.kind === 'attribute' && v.query.trim() !== '' && attrValues.data !== undefined;
  const kept = offered && picked !== 'all' ? picked.filter((x) => values.includes(x)) : null;
  const dropped = kept !== null && picked !== 'all' && kept.length < picked.length ? JSON.stringify(kept) : null;
  useEffect(() => {
    if (dropped === null) return;
    const rest = JSON.parse(dropped) as string[];
    onPick(rest.length ? rest : 'all', { replace: true });
  }, [dropped, onPick]);

  const options = [...(v.includeAll ? [ALL_VALUE] : []), ...values];
  const label = v.label || v.name;
  const text = (o: string) => (o === ALL_VALUE ? 'All' : o);
  const input = (p: Parameters<NonNullable<React.ComponentProps<typeof Autocomplete>['renderInput']>>[0]) => (
    <TextField
      {...p}
      label={label}
      slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'variable-input' } }}
    />
  );
  const common = {
    size: 'small' as const,
    options,
    getOptionLabel: text,
    loading: attrValues.isFetching,
    sx: { minWidth: 200 },
    'data-testid': 'variable-picker',
    'data-variable': v.name,
    renderInput: input,
  };
  if (v.multi) {
    const value = picked === 'all' ? (v.includeAll ? [ALL_VALUE] : []) : picked;
    return (
      <Autocomplete<string, true, false, false>
        {...common}
        multiple
        disableCloseOnSelect
        limitTags={3}
        value={value}
        onChange={(_e, next) => {
          // All picked last means All; a value picked while All was on replaces it.
          const last = next[next.length - 1];
          if (last === ALL_VALUE || next.length === 0) onPick('all');
          else onPick(next.filter((x) => x !== ALL_VALUE));
        }}
        renderValue={(selected, getItemProps) =>
          selected.map((o, index) => {
            const { key, ...rest } = getItemProps({ index });
            return <Chip key={key} size="small" label={text(o)} {...rest} />;
          })
        }
      />
    );
  }
  const value = picked === 'all' ? (v.includeAll ? ALL_VALUE : null) : (picked[0] ?? null);
  return (
    <Autocomplete<string, false, boolean, false>
      {...common}
      // Without All there is always a value: nothing to clear.
      disableClearable={!v.includeAll}
      value={value}
      onChange={(_e, next) => onPick(next === null || next === ALL_VALUE ? 'all' : [next])}
    />
  );
}

/** The picks of the variables before the `i`th, as the attribute values call's `var`. */
function picksBefore(vars: DashboardVariable[], i: number, picked: ReadonlyMap<string, Picked>): string[] {
  return variableParams(new Map(vars.slice(0, i).map((v) => [v.name, picked.get(v.name) ?? ('all' as const)])));
}
