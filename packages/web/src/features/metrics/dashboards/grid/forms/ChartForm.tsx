import { MenuItem, TextField } from '@mui/material';
import { useMemo, useState } from 'react';
import type { ChartKind } from '../../../../../components/charts/chartOptions';
import {
  DEFAULT_LEGEND,
  DEFAULT_STYLE,
  type ChartLegendConfig,
  type SeriesStyle,
} from '../../../../../components/charts/GridChart';
import { joinQuery, useTimeseries } from '../gridApi';
import { ChartPanel } from '../panels/ChartPanel';
import { LegendFields } from './LegendFields';
import { MetricsFields, useMetricsState } from './MetricsFields';
import { PanelForm, usePanelFormBase, type ColumnFormProps } from './PanelForm';
import { SeriesStyles } from './SeriesStyles';

const KINDS: [ChartKind, string][] = [
  ['line', 'Line chart'],
  ['area', 'Area chart'],
  ['stacked-area', 'Stacked area'],
  ['bar', 'Bar chart'],
  ['stacked-bar', 'Stacked bar'],
];

/** New / Edit chart panel: kind, metrics, query, units, legend and series styles, with a live chart of the real query. */
export function ChartForm(props: ColumnFormProps) {
  const { projectId, column, range, gridQuery } = props;
  const init = column?.type === 'chart' ? column.params : undefined;
  const base = usePanelFormBase(props);
  const m = useMetricsState(init);
  const [kind, setKind] = useState<ChartKind>(init?.chartKind ?? 'line');
  const [styles, setStyles] = useState<Record<string, SeriesStyle>>(() =>
    Object.fromEntries(Object.entries(init?.timeseriesMap ?? {}).map(([k, v]) => [k, { ...DEFAULT_STYLE, ...v }])),
  );
  const [legend, setLegend] = useState<ChartLegendConfig>(init?.legend ?? DEFAULT_LEGEND);
  const effective = joinQuery(m.query, gridQuery);
  const preview = useTimeseries(projectId, { metrics: m.metrics, query: effective }, range);
  const names = useMemo(() => (preview.data?.timeseries ?? []).map((t) => t.name), [preview.data]);
  const params = {
    chartKind: kind,
    metrics: m.metrics,
    query: m.query,
    columnMap: m.columnMap,
    timeseriesMap: styles,
    legend,
  };

  return (
    <PanelForm
      type="chart"
      form={props}
      base={base}
      params={{ type: 'chart', params }}
      valid={!m.error}
      preview={
        m.metrics.length ? (
          <ChartPanel projectId={projectId} params={params} query={effective} range={range} height={360} />
        ) : undefined
      }
      after={
        <>
          <LegendFields value={legend} onChange={setLegend} />
          <SeriesStyles names={names} kind={kind} value={styles} onChange={setStyles} />
        </>
      }
    >
      <ChartKindField value={kind} onChange={setKind} />
      <MetricsFields projectId={projectId} state={m} submitted={base.submitted} range={range} preview={preview.data} />
    </PanelForm>
  );
}

/** The chart kind picker of the chart and PromQL panel forms. */
export function ChartKindField({ value, onChange }: { value: ChartKind; onChange: (k: ChartKind) => void }) {
  return (
    <TextField
      select
      size="small"
      label="Chart kind"
      value={value}
      onChange={(e) => onChange(e.target.value as ChartKind)}
      data-testid="chart-kind"
    >
      {KINDS.map(([k, label]) => (
        <MenuItem key={k} value={k}>
          {label}
        </MenuItem>
      ))}
    </TextField>
  );
}
