import CloseIcon from '@mui/icons-material/Close';
import { Autocomplete, Box, IconButton, Stack, TextField, Typography } from '@mui/material';
import type { Metric, MetricAlias } from '@lantern/shared';
import { useMemo } from 'react';
import { useMetricsList } from '../metricsApi';
import { aliasError, suggestAlias } from './queryEdit';

export interface MetricsPickerProps {
  projectId: number;
  value: MetricAlias[];
  onChange: (value: MetricAlias[]) => void;
  /** Default 6 (spec platform §5). */
  max?: number;
  disabled?: boolean;
}

function MetricOption({ m }: { m: Metric }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, monospace' }}>
        {m.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" noWrap component="div">
        {m.instrument}
        {m.unit ? ` · ${m.unit}` : ''}
        {m.description ? ` · ${m.description}` : ''}
      </Typography>
    </Box>
  );
}

/**
 * Pick up to `max` metrics, each with an alias the query names it by (`$alias`): the metric from the
 * project's catalogue (name, instrument, unit, description), an alias suggested from its name and
 * checked as typed (spec platform §2.9, §5).
 */
export function MetricsPicker({ projectId, value, onChange, max = 6, disabled }: MetricsPickerProps) {
  const list = useMetricsList(projectId);
  const metrics = useMemo(() => (list.data?.metrics ?? []).filter((m) => m.instrument !== 'deleted'), [list.data]);
  const byName = useMemo(() => new Map(metrics.map((m) => [m.name, m])), [metrics]);
  const chosen = new Set(value.map((v) => v.name));
  const setAt = (i: number, next: MetricAlias) => onChange(value.map((v, j) => (j === i ? next : v)));

  return (
    <Stack spacing={1} data-testid="metrics-picker">
      {value.map((v, i) => {
        const err = aliasError(v.alias, value);
        return (
          <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="picked-metric">
            <TextField
              size="small"
              label="Metric"
              value={v.name}
              disabled
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { 'data-testid': 'picked-metric-name' } }}
              helperText={byName.get(v.name)?.instrument ?? ' '}
            />
            <TextField
              size="small"
              label="Alias"
              value={v.alias}
              disabled={disabled}
              onChange={(e) => setAt(i, { ...v, alias: e.target.value.toLowerCase() })}
              error={Boolean(err)}
              helperText={err ?? `$${v.alias}`}
              sx={{ width: 150 }}
              slotProps={{
                htmlInput: { 'data-testid': 'picked-metric-alias' },
                formHelperText: { 'data-testid': 'picked-metric-alias-helper' } as object,
              }}
            />
            <IconButton
              aria-label={`Remove ${v.name}`}
              disabled={disabled}
              onClick={() => onChange(value.filter((_, j) => j !== i))}
              data-testid="remove-metric"
              sx={{ mt: 0.5 }}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Stack>
        );
      })}
      {value.length < max && (
        <Autocomplete
          size="small"
          options={metrics.filter((m) => !chosen.has(m.name))}
          value={null}
          disabled={disabled}
          loading={list.isPending}
          blurOnSelect
          onChange={(_e, m) =>
            m &&
            onChange([
              ...value,
              {
                name: m.name,
                alias: suggestAlias(
                  m.name,
                  value.map((x) => x.alias),
                ),
              },
            ])
          }
          getOptionLabel={(m) => m.name}
          filterOptions={(opts, { inputValue }) => {
            const q = inputValue.trim().toLowerCase();
            return (
              q ? opts.filter((m) => m.name.toLowerCase().includes(q) || m.description.toLowerCase().includes(q)) : opts
            ).slice(0, 200);
          }}
          renderOption={(props, m) => {
            const { key, ...rest } = props as typeof props & { key: string };
            return (
              <Box component="li" key={key} {...rest} data-testid="metric-option">
                <MetricOption m={m} />
              </Box>
            );
          }}
          noOptionsText={list.isPending ? 'Loading...' : 'No metrics'}
          renderInput={(p) => (
            <TextField
              {...p}
              label={value.length ? 'Add a metric' : 'Select a metric'}
              slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'metric-search' } }}
            />
          )}
        />
      )}
    </Stack>
  );
}
