import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { MAX_VARIABLES, type Dashboard, type DashboardVariable } from '@lantern/shared';
import { useState } from 'react';
import { useMetricAttrKeys, useMetricsList } from '../../metricsApi';
import { useSaveVariables } from '../dashboardsApi';

type Range = { time_gte: string; time_lt: string };

const blank = (n: number): DashboardVariable => ({
  name: n ? `var${n + 1}` : 'service',
  label: '',
  kind: 'attribute',
  metric: '',
  attr: n ? '' : 'service.name',
  values: [],
  query: '',
  multi: false,
  includeAll: true,
});

/**
 * The dashboard's variables (issue 41): name (what `$name` in a query and `var-name` in the address
 * say), label, where the values come from (an attribute of a metric in the range, or a fixed
 * comma-separated list; an attribute's values may be filtered by the variables above it,
 * `where service.name = $service`), whether several may be picked and whether All is offered.
 */
export function VariablesDialog(props: { projectId: number; dashboard: Dashboard; range: Range; onClose: () => void }) {
  const [vars, setVars] = useState<DashboardVariable[]>(props.dashboard.variables);
  // The list's text as typed (commas and spaces kept while typing), by row.
  const [lists, setLists] = useState<string[]>(props.dashboard.variables.map((v) => v.values.join(', ')));
  const save = useSaveVariables(props.projectId);
  const set = (i: number, patch: Partial<DashboardVariable>) =>
    setVars((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const submit = () => {
    const body = vars.map((v, i) => ({
      ...v,
      values:
        v.kind === 'list'
          ? (lists[i] ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
      ...(v.kind === 'list' ? { metric: '', attr: '', query: '' } : {}),
    }));
    save.mutate({ dashId: props.dashboard.id, variables: body }, { onSuccess: props.onClose });
  };
  return (
    <Dialog open onClose={props.onClose} maxWidth="md" fullWidth data-testid="variables-dialog">
      <DialogTitle>Dashboard variables</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          A variable is a picker above the dashboard. Panel queries name it as <code>$name</code>:{' '}
          <code>where service.name = $service</code> (several values: <code>in (...)</code>; All drops the filter) or{' '}
          <code>group by $group</code> (the values are attribute names).
        </Typography>
        <Stack spacing={1.5}>
          {vars.map((v, i) => (
            <VariableRow
              key={i}
              projectId={props.projectId}
              range={props.range}
              variable={v}
              list={lists[i] ?? ''}
              onList={(text) => setLists((ls) => Object.assign([...ls], { [i]: text }))}
              onChange={(patch) => set(i, patch)}
              onRemove={() => {
                setVars((vs) => vs.filter((_v, j) => j !== i));
                setLists((ls) => ls.filter((_l, j) => j !== i));
              }}
            />
          ))}
          {vars.length === 0 && (
            <Typography color="text.secondary" data-testid="no-variables">
              No variables yet.
            </Typography>
          )}
        </Stack>
        <Button
          startIcon={<AddIcon />}
          sx={{ mt: 1 }}
          disabled={vars.length >= MAX_VARIABLES}
          onClick={() => {
            setVars((vs) => [...vs, blank(vs.length)]);
            setLists((ls) => [...ls, '']);
          }}
          data-testid="add-variable"
        >
          Add variable
        </Button>
        {save.error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="variables-error">
            {save.error.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="variables-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function VariableRow(props: {
  projectId: number;
  range: Range;
  variable: DashboardVariable;
  list: string;
  onList: (text: string) => void;
  onChange: (patch: Partial<DashboardVariable>) => void;
  onRemove: () => void;
}) {
  const v = props.variable;
  const metrics = useMetricsList(props.projectId);
  const keys = useMetricAttrKeys(
    props.projectId,
    { ...props.range, metric: [v.metric] },
    v.kind === 'attribute' && v.metric !== '',
  );
  const field = (testId: string) => ({ htmlInput: { 'data-testid': testId } });
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="variable-row">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          label="Name"
          value={v.name}
          onChange={(e) => props.onChange({ name: e.target.value })}
          sx={{ width: 140 }}
          slotProps={field('variable-name')}
        />
        <TextField
          size="small"
          label="Label"
          value={v.label}
          onChange={(e) => props.onChange({ label: e.target.value })}
          sx={{ width: 140 }}
          slotProps={field('variable-label')}
        />
        <TextField
          select
          size="small"
          label="Values"
          value={v.kind}
          onChange={(e) => props.onChange({ kind: e.target.value as DashboardVariable['kind'] })}
          sx={{ width: 190 }}
          slotProps={{ htmlInput: { 'data-testid': 'variable-kind' } }}
        >
          <MenuItem value="attribute">Of an attribute</MenuItem>
          <MenuItem value="list">A fixed list</MenuItem>
        </TextField>
        {v.kind === 'attribute' ? (
          <>
            <FreeText
              label="Metric"
              testId="variable-metric"
              width={250}
              options={(metrics.data?.metrics ?? []).map((m) => m.name)}
              value={v.metric}
              onChange={(metric) => props.onChange({ metric })}
            />
            <FreeText
              label="Attribute"
              testId="variable-attr"
              width={200}
              options={(keys.data?.items ?? []).map((k) => k.value)}
              value={v.attr}
              onChange={(attr) => props.onChange({ attr })}
            />
            <TextField
              size="small"
              label="Only where (optional)"
              placeholder="where service.name = $service"
              value={v.query}
              onChange={(e) => props.onChange({ query: e.target.value })}
              helperText="Its values follow the variables above it"
              sx={{ width: 300 }}
              slotProps={field('variable-filter')}
            />
          </>
        ) : (
          <TextField
            size="small"
            label="Values (comma-separated)"
            value={props.list}
            onChange={(e) => props.onList(e.target.value)}
            sx={{ width: 454 }}
            slotProps={field('variable-values')}
          />
        )}
        {(
          [
            ['multi', 'Several', 'variable-multi'],
            ['includeAll', 'All', 'variable-all'],
          ] as const
        ).map(([key, label, testId]) => (
          <FormControlLabel
            key={key}
            label={label}
            control={
              <Checkbox
                size="small"
                checked={v[key]}
                onChange={(e) => props.onChange({ [key]: e.target.checked })}
                slotProps={{ input: { 'data-testid': testId } as object }}
              />
            }
          />
        ))}
        <Tooltip title="Remove the variable">
          <IconButton onClick={props.onRemove} aria-label="Remove the variable" data-testid="variable-remove">
            <DeleteIcon />
          </IconButton>
        </Tooltip>
      </Stack>
    </Paper>
  );
}

/** A text field that suggests `options` and takes any text. */
function FreeText(props: {
  label: string;
  testId: string;
  width: number;
  options: string[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={props.options}
      inputValue={props.value}
      onInputChange={(_e, value) => props.onChange(value)}
      sx={{ width: props.width }}
      renderInput={(p) => (
        <TextField
          {...p}
          label={props.label}
          slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': props.testId } }}
        />
      )}
    />
  );
}
