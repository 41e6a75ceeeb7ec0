import { HeatmapChart } from '../../../../../components/charts/HeatmapChart';
import { useMetricDescribe } from '../../../metricsApi';
import { useHeatmap, type Range } from '../gridApi';
import { cleanUnit } from '../units';
import { PanelMessage } from './PanelMessage';
import { usePanelError } from './usePanelError';

/**
 * A heatmap panel: the buckets of one histogram metric over time (`GET /metrics/:pid/heatmap`). A
 * panel without a unit of its own (a built-in dashboard's, or one written as YAML) labels its bins
 * in the metric's unit.
 */
export function HeatmapPanel({
  projectId,
  metric,
  unit,
  query,
  range,
  height,
  onError,
}: {
  projectId: number;
  metric: string;
  unit: string;
  query: string;
  range: Range;
  height?: number;
  onError?: (error: string | undefined) => void;
}) {
  const res = useHeatmap(projectId, { metric, query }, range);
  const described = useMetricDescribe(projectId, unit ? undefined : metric);
  const shown = unit || (described.data?.metrics.find((m) => m.name === metric)?.unit ?? '');
  const error = usePanelError(onError, res.error, res.data?.query.parts);
  if (error && !res.data) return <PanelMessage height={height ?? 200} error={error} />;
  if (!res.data) return <PanelMessage height={height ?? 200} loading />;
  return <HeatmapChart data={res.data.heatmap} unit={cleanUnit(shown)} height={height} />;
}
