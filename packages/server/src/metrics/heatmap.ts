import type { HeatmapResponse } from '@lantern/shared';
import { bucketTimes, type TimeGrid } from './query/timeRange';

/**
 * Heatmap of a histogram metric (reference query §3.11): per time bucket the summed bucket map;
 * 16 value bins between the global min and max, log-spaced when min > 0 and the span is wide,
 * else linear. A value belongs to [lo, hi); the last edge sits just above the max. When every
 * value is the same there is one bin (the reference draws 16 rows all labelled with that value).
 */
const BINS = 16;

export function buildHeatmap(
  grid: TimeGrid,
  rows: { t: number; values: number[]; counts: number[] }[],
): HeatmapResponse['heatmap'] {
  const nonEmpty = rows.filter((r) => r.counts.some((c) => c > 0));
  if (nonEmpty.length === 0) return { xAxis: [], yAxis: [], data: [] };
  let min = Infinity;
  let max = -Infinity;
  for (const r of nonEmpty) {
    r.values.forEach((v, i) => {
      if (r.counts[i] > 0) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    });
  }
  const log = min > 0 && max - min > 1;
  const bins = min === max ? 1 : BINS;
  const edges: number[] = [];
  for (let i = 0; i <= bins; i++) {
    edges.push(log ? min * Math.pow(max / min, i / bins) : min + ((max - min) * i) / bins);
  }
  edges[bins] = max + Math.max(Math.abs(max) * 1e-9, 1e-9);
  const yAxis = edges.slice(0, bins).map((lo, i) => [lo, edges[i + 1]] as [number, number]);
  const bucketSec = grid.bucketMin * 60;
  const start = grid.gte.getTime() / 1000;
  const cells = new Map<string, number>();
  for (const r of nonEmpty) {
    const x = Math.floor((r.t - start) / bucketSec);
    if (x < 0 || x >= grid.points) continue;
    r.values.forEach((v, i) => {
      if (!(r.counts[i] > 0)) return;
      let y = edges.findIndex((e, j) => j < bins && v >= e && v < edges[j + 1]);
      if (y < 0) y = bins - 1;
      const key = `${x},${y}`;
      cells.set(key, (cells.get(key) ?? 0) + r.counts[i]);
    });
  }
  const data = [...cells].map(([k, c]) => {
    const [x, y] = k.split(',').map(Number);
    return [x, y, c] as [number, number, number];
  });
  data.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { xAxis: bucketTimes(grid), yAxis, data };
}
