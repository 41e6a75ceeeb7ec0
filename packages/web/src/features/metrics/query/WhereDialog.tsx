import {
  Autocomplete,
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
import { quoteQueryValue } from './queryEdit';

const OPS = ['=', '!=', '~', '!~', 'like', 'not like', 'exists', 'not exists'] as const;

/** 'Where': an attribute, an operator and a value (suggested from the metrics' data in the range). */
export function WhereDialog(props: {
  projectId: number;
  metrics: MetricAlias[];
  attrKeys: string[];
  range: { time_gte: string; time_lt: string };
  onAdd: (part: string) => void;
  onClose: () => void;
}) {
  const [key, setKey] = useState(props.attrKeys[0] ?? '');
  const [op, setOp] = useState<(typeof OPS)[number]>('=');
  const [value, setValue] = useState('');
  const values = useMetricAttrValues(props.projectId, {
    ...props.range,
    metric: props.metrics.map((m) => m.name),
    attr_key: key,
  });
  const noValue = op === 'exists' || op === 'not exists';
  const valid = key !== '' && (noValue || value !== '');
  const add = () => {
    if (!valid) return;
    props.onAdd(noValue ? `where ${key} ${op}` : `where ${key} ${op} ${quoteQueryValue(value)}`);
    props.onClose();
  };
  return (
    <Dialog open onClose={props.onClose} maxWidth="sm" fullWidth data-testid="where-dialog">
      <DialogTitle>Filter by an attribute</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
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
                slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-key' } }}
              />
            )}
          />
          <TextField
            select
            size="small"
            label="Operator"
            value={op}
            onChange={(e) => setOp(e.target.value as (typeof OPS)[number])}
            sx={{ width: 130 }}
            slotProps={{ htmlInput: { 'data-testid': 'where-op' } }}
          >
            {OPS.map((o) => (
              <MenuItem key={o} value={o}>
                {o}
              </MenuItem>
            ))}
          </TextField>
          {!noValue && (
            <Autocomplete
              size="small"
              freeSolo
              options={(values.data?.items ?? []).map((i) => i.value)}
              inputValue={value}
              onInputChange={(_e, v) => setValue(v)}
              sx={{ flex: 1 }}
              renderInput={(p) => (
                <TextField
                  {...p}
                  label="Value"
                  slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-value' } }}
                />
              )}
            />
          )}
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
