import {
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { MetricAlias } from '@lantern/shared';
import { useState } from 'react';
import { useMetricAttrValues } from '../metricsApi';
import { opLabel, takesNoValue, valueHint, valueProblem, WHERE_OPS, wherePart, type WhereOp } from './whereOps';

/**
 * 'Where': an attribute, an operator and a value (suggested from the metrics' data in the range).
 * Spec §5: attribute and operator are required; the value is disabled for exists / not exists; a
 * like hint. The operators are those the metrics engine runs (whereOps.ts).
 */
export function WhereDialog(props: {
  projectId: number;
  metrics: MetricAlias[];
  attrKeys: string[];
  range: { time_gte: string; time_lt: string };
  onAdd: (part: string) => void;
  onClose: () => void;
}) {
  const [key, setKey] = useState(props.attrKeys[0] ?? '');
  const [op, setOp] = useState<WhereOp>('=');
  const [value, setValue] = useState('');
  const values = useMetricAttrValues(props.projectId, {
    ...props.range,
    metric: props.metrics.map((m) => m.name),
    attr_key: key,
  });
  const noValue = takesNoValue(op);
  const problem = valueProblem(op, value);
  const valid = key !== '' && !problem;
  // An empty value is not an error to shout about; a value the operator cannot take is.
  const shownProblem = value !== '' ? problem : undefined;
  const add = () => {
    if (!valid) return;
    props.onAdd(wherePart(key, op, value));
    props.onClose();
  };
  return (
    <Dialog open onClose={props.onClose} maxWidth="sm" fullWidth data-testid="where-dialog">
      <DialogTitle>Filter by an attribute</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'flex-start' }}>
          <Autocomplete
            size="small"
            options={props.attrKeys}
            value={key || null}
            onChange={(_e, v) => setKey(v ?? '')}
            sx={{ flex: 1 }}
            renderInput={(p) => (
              <TextField
                {...p}
                label="Attribute"
                required
                slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-key' } }}
              />
            )}
          />
          <TextField
            select
            size="small"
            label="Operator"
            required
            value={op}
            onChange={(e) => setOp(e.target.value as WhereOp)}
            sx={{ width: 130 }}
            slotProps={{
              htmlInput: { 'data-testid': 'where-op' },
              select: { renderValue: (v) => String(v) },
            }}
          >
            {WHERE_OPS.map((o) => (
              <MenuItem key={o} value={o} data-testid="where-op-option" data-op={o}>
                <Box component="span" sx={{ fontFamily: 'ui-monospace, monospace', minWidth: 72 }}>
                  {o}
                </Box>
                {opLabel(o) && (
                  <Box component="span" sx={{ color: 'text.secondary', fontSize: 12, ml: 1 }}>
                    {opLabel(o)}
                  </Box>
                )}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            size="small"
            freeSolo
            disabled={noValue}
            options={(values.data?.items ?? []).map((i) => i.value)}
            inputValue={noValue ? '' : value}
            onInputChange={(_e, v) => setValue(v)}
            sx={{ flex: 1 }}
            renderInput={(p) => (
              <TextField
                {...p}
                label="Value"
                placeholder={op === 'like' || op === 'not like' ? '%substring% or %suffix or prefix%' : undefined}
                error={shownProblem !== undefined}
                helperText={shownProblem ?? (noValue ? undefined : valueHint(op))}
                slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-value' } }}
              />
            )}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" disabled={!valid} onClick={add} data-testid="where-add">
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
