import type { GridColumnInput } from '@lantern/shared';
import type { ChartLegendConfig } from '../../../../../components/charts/GridChart';
import type { Range } from '../gridApi';
import { ChartPanel } from './ChartPanel';
import { HeatmapPanel } from './HeatmapPanel';
import { PromqlChartPanel } from './PromqlChartPanel';
import { TablePanel } from './TablePanel';

/** The body of a grid panel (or a form preview) by its type: chart, table, heatmap or PromQL chart. */
export function PanelBody({
  projectId,
  column,
  query,
  range,
  height,
  legend,
  legendMaxLength,
  onError,
}: {
  projectId: number;
  column: GridColumnInput;
  /** The effective query: the panel's own joined with the dashboard's. */
  query: string;
  range: Range;
  height: number;
  legend?: ChartLegendConfig;
  /** Legend names longer than this are cut in the middle (charts; 40 unless set). */
  legendMaxLength?: number;
  onError?: (error: string | undefined) => void;
}) {
  if (column.type === 'chart') {
    const p = column.params;
    return (
      <ChartPanel
        projectId={projectId}
        params={{
          chartKind: p.chartKind,
          metrics: p.metrics,
          query: p.query,
          columnMap: p.columnMap,
          timeseriesMap: p.timeseriesMap,
          legend: p.legend,
        }}
        query={query}
        range={range}
        height={height}
        legend={legend}
        legendMaxLength={legendMaxLength}
        onError={onError}
      />
    );
  }
  if (column.type === 'table')
    return (
      <TablePanel
        projectId={projectId}
        params={column.params}
        query={query}
        range={range}
        height={height}
        perPage={legend ? 10 : 5}
        onError={onError}
      />
    );
  if (column.type === 'promql')
    return (
      <PromqlChartPanel
        projectId={projectId}
        params={column.params}
        range={range}
        height={height}
        legend={legend}
        legendMaxLength={legendMaxLength}
        onError={onError}
      />
    );
  return (
    <HeatmapPanel
      projectId={projectId}
      metric={column.params.metric}
      unit={column.params.unit}
      query={query}
      range={range}
      height={height}
      onError={onError}
    />
  );
}
