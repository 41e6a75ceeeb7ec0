import { MenuItem, TextField, Typography } from '@mui/material';
import type { ColumnMap, GridColumn, MetricAlias } from '@lantern/shared';
import { useMemo, useState } from 'react';
import type { ChartKind } from '../../../../../components/charts/chartOptions';
import {
  DEFAULT_LEGEND,
  DEFAULT_STYLE,
  type ChartLegendConfig,
  type SeriesStyle,
} from '../../../../../components/charts/GridChart';
import { joinQuery, useTimeseries, type Range } from '../gridApi';
import { ChartPanel } from '../panels/ChartPanel';
import { FormShell } from './FormShell';
import { GridQueryTemplateField } from './GridQueryTemplateField';
import { LegendFields } from './LegendFields';
import { SeriesStyles } from './SeriesStyles';
import { useColumnFormBase } from './useColumnFormBase';
import { metricsError, required } from './validation';
import { MetricsFields } from './MetricsFields';

const KINDS: [ChartKind, string][] = [
  ['line', 'Line chart'],
  ['area', 'Area chart'],
  ['stacked-area', 'Stacked area'],
  ['bar', 'Bar chart'],
  ['stacked-bar', 'Stacked bar'],
];

export interface ColumnFormProps {
  projectId: number;
  dashId: string;
  column?: GridColumn;
  range: Range;
  gridQuery: string;
  editable: boolean;
  onClose: () => void;
}

/** New / Edit chart column: kind, metrics, query, units, legend and series styles, with a live chart of the real query. */
export function ChartForm({ projectId, dashId, column, range, gridQuery, editable, onClose }: ColumnFormProps) {
  const init = column?.type === 'chart' ? column.params : undefined;
  const base = useColumnFormBase(projectId, dashId, column, onClose);
  const [kind, setKind] = useState<ChartKind>(init?.chartKind ?? 'line');
  const [metrics, setMetrics] = useState<MetricAlias[]>(init?.metrics ?? []);
  const [query, setQuery] = useState(init?.query ?? '');
  const [columnMap, setColumnMap] = useState<ColumnMap>(init?.columnMap ?? {});
  const [styles, setStyles] = useState<Record<string, SeriesStyle>>(() =>
    Object.fromEntries(Object.entries(init?.timeseriesMap ?? {}).map(([k, v]) => [k, { ...DEFAULT_STYLE, ...v }])),
  );
  const [legend, setLegend] = useState<ChartLegendConfig>(init?.legend ?? DEFAULT_LEGEND);
  const effective = joinQuery(query, gridQuery);
  const preview = useTimeseries(projectId, { metrics, query: effective }, range);
  const names = useMemo(() => (preview.data?.timeseries ?? []).map((t) => t.name), [preview.data]);

  const nameErr = base.submitted ? required(base.name, 'Name') : undefined;
  const metricsErr = base.submitted ? metricsError(metrics) : undefined;
  const save = () =>
    base.submit(
      { type: 'chart', params: { chartKind: kind, metrics, query, columnMap, timeseriesMap: styles, legend } },
      !required(base.name, 'Name') && !metricsError(metrics),
    );

  return (
    <FormShell
      title={column ? 'Edit chart column' : 'New chart column'}
      testId="chart-form"
      editable={editable}
      isNew={!column}
      saving={base.saving}
      error={base.error}
      onSave={save}
      onClose={onClose}
      preview={
        metrics.length ? (
          <ChartPanel
            projectId={projectId}
            params={{ chartKind: kind, metrics, query, columnMap, timeseriesMap: styles, legend }}
            query={effective}
            range={range}
            height={360}
          />
        ) : (
          <Typography color="text.secondary">Select a metric first...</Typography>
        )
      }
    >
      <TextField
        select
        size="small"
        label="Chart kind"
        value={kind}
        onChange={(e) => setKind(e.target.value as ChartKind)}
        data-testid="chart-kind"
      >
        {KINDS.map(([k, label]) => (
          <MenuItem key={k} value={k}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      <MetricsFields
        projectId={projectId}
        metrics={metrics}
        onMetrics={setMetrics}
        metricsError={metricsErr}
        query={query}
        onQuery={setQuery}
        range={range}
        preview={preview.data}
        columnMap={columnMap}
        onColumnMap={setColumnMap}
      />
      <TextField
        size="small"
        label="Chart name"
        required
        value={base.name}
        onChange={(e) => base.setName(e.target.value)}
        error={!!nameErr}
        helperText={nameErr}
        slotProps={{ htmlInput: { 'data-testid': 'column-name' } }}
      />
      <TextField
        size="small"
        label="Description"
        value={base.description}
        onChange={(e) => base.setDescription(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'column-description' } }}
      />
      <LegendFields value={legend} onChange={setLegend} />
      <SeriesStyles names={names} kind={kind} value={styles} onChange={setStyles} />
      <GridQueryTemplateField value={base.gridQueryTemplate} onChange={base.setGridQueryTemplate} what="panel" />
    </FormShell>
  );
}
