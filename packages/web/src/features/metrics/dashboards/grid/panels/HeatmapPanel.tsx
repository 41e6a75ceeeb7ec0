import { HeatmapChart } from '../../../../../components/charts/HeatmapChart';
import { useHeatmap, type Range } from '../gridApi';
import { cleanUnit } from '../units';
import { PanelMessage } from './PanelMessage';
import { usePanelError } from './usePanelError';

/** A heatmap panel: the buckets of one histogram metric over time (`GET /metrics/:pid/heatmap`). */
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
  const error = usePanelError(onError, res.error, res.data?.query.parts);
  if (error && !res.data) return <PanelMessage height={height ?? 200} error={error} />;
  if (!res.data) return <PanelMessage height={height ?? 200} loading />;
  return <HeatmapChart data={res.data.heatmap} unit={cleanUnit(unit)} height={height} />;
}
