import { Autocomplete, Box, Chip, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useMetricsList } from '../../../metricsApi';
import { joinQuery, useHeatmap } from '../gridApi';
import { HeatmapPanel } from '../panels/HeatmapPanel';
import { cleanUnit, queryError } from '../units';
import { PanelForm, usePanelFormBase, type ColumnFormProps } from './PanelForm';
import { UnitField } from './UnitField';

/** New / Edit heatmap panel: one histogram metric, its unit (filled from the metric), a where filter, the live heatmap. */
export function HeatmapForm(props: ColumnFormProps) {
  const { projectId, column, range, gridQuery } = props;
  const init = column?.type === 'heatmap' ? column.params : undefined;
  const base = usePanelFormBase(props);
  const [metric, setMetric] = useState(init?.metric ?? '');
  const [unit, setUnit] = useState(init?.unit ?? '');
  const [query, setQuery] = useState(init?.query ?? '');
  const list = useMetricsList(projectId);
  const histograms = useMemo(() => (list.data?.metrics ?? []).filter((m) => m.instrument === 'histogram'), [list.data]);
  const selected = histograms.find((m) => m.name === metric) ?? null;
  const effective = joinQuery(query, gridQuery);
  const preview = useHeatmap(projectId, metric ? { metric, query: effective } : undefined, range);
  const whereErr = queryError(preview.data?.query.parts);
  const metricErr = base.submitted && !metric ? 'Select a histogram metric' : undefined;

  return (
    <PanelForm
      type="heatmap"
      form={props}
      base={base}
      params={{ type: 'heatmap', params: { metric, unit, query } }}
      valid={!!metric}
      preview={
        metric ? (
          <HeatmapPanel projectId={projectId} metric={metric} unit={unit} query={effective} range={range} />
        ) : undefined
      }
    >
      <Autocomplete
        options={histograms}
        value={selected}
        loading={list.isLoading}
        getOptionLabel={(m) => m.name}
        isOptionEqualToValue={(a, b) => a.name === b.name}
        onChange={(_, m) => {
          setMetric(m?.name ?? '');
          setUnit(cleanUnit(m?.unit ?? ''));
        }}
        renderOption={({ key, ...props }, m) => (
          <Box
            component="li"
            key={key}
            {...props}
            sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start !important' }}
          >
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <Typography variant="body2">{m.name}</Typography>
              <Chip size="small" label={m.instrument} />
              {m.unit && <Chip size="small" variant="outlined" label={m.unit} />}
            </Box>
            {m.description && (
              <Typography variant="caption" color="text.secondary">
                {m.description}
              </Typography>
            )}
          </Box>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label="Histogram metric"
            required
            error={!!metricErr}
            helperText={
              metricErr ?? (list.data && !histograms.length ? 'This project has no histogram metrics yet' : undefined)
            }
          />
        )}
        noOptionsText="No histogram metrics"
        data-testid="heatmap-metric"
      />
      <UnitField label="Metric unit" value={unit} onChange={setUnit} testId="heatmap-unit" />
      <TextField
        size="small"
        label="Where"
        placeholder='where host.name = "server1"'
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        error={!!whereErr}
        helperText={whereErr ?? 'Only where filters; joined with | for several.'}
        slotProps={{ htmlInput: { 'data-testid': 'heatmap-where' } }}
      />
    </PanelForm>
  );
}
