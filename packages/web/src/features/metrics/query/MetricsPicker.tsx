import CloseIcon from '@mui/icons-material/Close';
import { Autocomplete, Box, IconButton, Stack, TextField, Typography } from '@mui/material';
import type { Metric, MetricAlias } from '@lantern/shared';
import { useMemo, useRef } from 'react';
import { useMetricsList } from '../metricsApi';
import { aliasError, suggestAlias, syncQueryWithMetrics, type DefaultShape } from './queryEdit';

export interface MetricsPickerProps {
  projectId: number;
  value: MetricAlias[];
  /** The query the metrics are named in, kept in step with them (see `syncQueryWithMetrics`). */
  query: string;
  /** The new metrics and the query in step with them, in one call. */
  onChange: (value: MetricAlias[], query: string) => void;
  /**
   * The default query a picked metric adds (`defaultQuery`): `columns` in forms that show several
   * (a histogram adds its avg and rate), `one` (the default) in those that check one number.
   */
  shape?: DefaultShape;
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
 * checked as typed (spec platform §2.9, §5). The query follows (reference frontend §1.3.13): a
 * picked metric adds its default aggregation, a removed one takes its parts away, a renamed one has
 * its `$alias` references rewritten.
 */
export function MetricsPicker({ projectId, value, query, onChange, shape, max = 6, disabled }: MetricsPickerProps) {
  const list = useMetricsList(projectId);
  const metrics = useMemo(() => (list.data?.metrics ?? []).filter((m) => m.instrument !== 'deleted'), [list.data]);
  const byName = useMemo(() => new Map(metrics.map((m) => [m.name, m])), [metrics]);
  const chosen = new Set(value.map((v) => v.name));
  // Each metric as the query names it: its alias, or while the alias is being typed (and is empty,
  // invalid or taken) the last good one, which the query keeps until the new one is fine.
  const named = useRef<MetricAlias[]>([]);
  const change = (next: MetricAlias[]) => {
    const inQuery = value.map(
      (v) => (aliasError(v.alias, value) ? named.current.find((n) => n.name === v.name) : v) ?? v,
    );
    const synced = syncQueryWithMetrics(query, inQuery, next, (name) => byName.get(name)?.instrument, shape);
    named.current = synced.inQuery;
    onChange(next, synced.query);
  };
  const setAt = (i: number, next: MetricAlias) => change(value.map((v, j) => (j === i ? next : v)));

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
              // Read-only, not disabled: the chosen name reads as text, not greyed out like a
              // placeholder of an empty field (change the metric by removing it and adding another).
              sx={{ flex: 1 }}
              slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'picked-metric-name' } }}
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
              onClick={() => change(value.filter((_, j) => j !== i))}
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
            change([
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
