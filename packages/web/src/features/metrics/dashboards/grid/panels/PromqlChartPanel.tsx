import type { PromqlParams } from '@lantern/shared';
import { Box, LinearProgress } from '@mui/material';
import { useMemo } from 'react';
import type { z } from 'zod';
import { GridChart, type ChartLegendConfig } from '../../../../../components/charts/GridChart';
import { usePromqlRange } from '../../../promql/promqlApi';
import { alignedRange, matrixToChart } from '../../../promql/promqlResult';
import type { Range } from '../gridApi';
import { PanelMessage } from './PanelMessage';
import { usePanelError } from './usePanelError';

/**
 * A PromQL panel: its query over the dashboard's range, asked of Lantern's Prometheus API at a
 * whole-minute step, drawn like a chart panel (the dashboard's own query does not apply to PromQL;
 * its variables do: the server writes their values into `$name`, as Grafana does).
 */
export function PromqlChartPanel({
  projectId,
  params,
  range,
  height,
  legend,
  legendMaxLength,
  onError,
}: {
  projectId: number;
  params: z.output<typeof PromqlParams>;
  range: Range;
  height: number;
  legend?: ChartLegendConfig;
  legendMaxLength?: number;
  onError?: (error: string | undefined) => void;
}) {
  const grid = useMemo(() => alignedRange(Date.parse(range.time_gte), Date.parse(range.time_lt)), [range]);
  const res = usePromqlRange(projectId, { query: params.query, ...grid, ...(range.var ? { var: range.var } : {}) });
  const error = usePanelError(onError, res.error, undefined);
  const chart = useMemo(() => {
    if (!res.data) return undefined;
    const c = matrixToChart(res.data.result, grid);
    return { time: c.time, series: c.series.map((s) => ({ ...s, unit: params.unit })) };
  }, [res.data, grid, params.unit]);
  if (error && !chart?.series.length) return <PanelMessage height={height} error={error} />;
  if (!chart) return <PanelMessage height={height} loading />;
  return (
    <Box sx={{ position: 'relative' }}>
      {res.isFetching && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2 }} />}
      <GridChart
        time={chart.time}
        series={chart.series}
        kind={params.chartKind}
        height={height}
        legend={legend}
        legendMaxLength={legendMaxLength}
        styles={{}}
      />
    </Box>
  );
}
