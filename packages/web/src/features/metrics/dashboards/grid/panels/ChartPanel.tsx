import type { ColumnMap, MetricAlias } from '@lantern/shared';
import { Box, LinearProgress } from '@mui/material';
import { useMemo } from 'react';
import type { ChartKind, Series } from '../../../../../components/charts/chartOptions';
import { GridChart, type ChartLegendConfig, type SeriesStyle } from '../../../../../components/charts/GridChart';
import { useTimeseries, type Range } from '../gridApi';
import { columnUnit } from '../units';
import { PanelMessage } from './PanelMessage';
import { usePanelError } from './usePanelError';

export interface ChartPanelParams {
  chartKind: ChartKind;
  metrics: MetricAlias[];
  query: string;
  columnMap: ColumnMap;
  timeseriesMap: Record<string, Partial<SeriesStyle>>;
  legend?: ChartLegendConfig;
}

/** A chart panel: the timeseries of its query (series named by the server), units from the column map. */
export function ChartPanel({
  projectId,
  params,
  query,
  range,
  height,
  legend,
  legendMaxLength,
  onError,
}: {
  projectId: number;
  params: ChartPanelParams;
  /** The effective query (panel | dashboard | row filter). */
  query: string;
  range: Range;
  height: number;
  /** Overrides the panel's legend (the View dialog's verbose table). */
  legend?: ChartLegendConfig;
  legendMaxLength?: number;
  onError?: (error: string | undefined) => void;
}) {
  const res = useTimeseries(projectId, { metrics: params.metrics, query }, range);
  const error = usePanelError(onError, res.error, res.data?.query.parts);
  const series = useMemo<Series[]>(
    () =>
      (res.data?.timeseries ?? []).map((ts) => ({
        name: ts.name,
        unit: columnUnit(params.columnMap, { name: ts.metric, unit: ts.unit }),
        values: ts.value,
        color: params.columnMap[ts.metric]?.color || undefined,
      })),
    [res.data, params.columnMap],
  );
  if (error && !res.data?.timeseries.length) return <PanelMessage height={height} error={error} />;
  if (!res.data) return <PanelMessage height={height} loading />;
  return (
    <Box sx={{ position: 'relative' }}>
      {res.isFetching && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2 }} />}
      <GridChart
        time={res.data.time}
        series={series}
        kind={params.chartKind}
        height={height}
        legend={legend ?? params.legend}
        legendMaxLength={legendMaxLength}
        styles={params.timeseriesMap}
      />
    </Box>
  );
}
