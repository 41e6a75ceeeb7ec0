import type { Series } from '../../../components/charts/chartOptions';

/**
 * Pure helpers of the PromQL mode: the step a range is asked at, the aligned range, and a range
 * query's matrix as the shared time axis and series that `MetricChart` draws.
 */

/** Steps offered to the server, in seconds: whole minutes, as Lantern stores one point a minute. */
const STEPS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
/** At most this many points per series (about the chart's width in pixels / 2, as Grafana's default). */
export const MAX_POINTS = 720;

/** The smallest whole-minute step that keeps a range within MAX_POINTS points. */
export function promqlStep(rangeMs: number): number {
  const seconds = rangeMs / 1000;
  return STEPS.find((s) => seconds / s <= MAX_POINTS) ?? STEPS[STEPS.length - 1];
}

/** The range in Unix seconds, start and end on multiples of the step (so answers repeat and cache). */
export function alignedRange(gteMs: number, ltMs: number): { start: number; end: number; step: number } {
  const step = promqlStep(ltMs - gteMs);
  const start = Math.ceil(gteMs / 1000 / step) * step;
  const end = Math.max(start, Math.floor(ltMs / 1000 / step) * step);
  return { start, end, step };
}

export interface MatrixSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

/** A series' legend name as Prometheus prints it: `name{a="x", b="y"}`, `{}` for none. */
export function seriesName(metric: Record<string, string>): string {
  const { __name__: name = '', ...labels } = metric;
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`);
  return pairs.length === 0 && name ? name : `${name}{${pairs.join(', ')}}`;
}

/** Prometheus's value text as a number ("+Inf", "NaN" included); non-finite values are gaps on a chart. */
function chartValue(text: string): number | null {
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

/**
 * A matrix on the grid start..end by step: one time stamp per step (ISO), each series' values at
 * them, null where the series has no point (the chart draws a gap).
 */
export function matrixToChart(
  result: readonly MatrixSeries[],
  grid: { start: number; end: number; step: number },
): { time: string[]; series: Series[] } {
  const n = Math.floor((grid.end - grid.start) / grid.step) + 1;
  const time = Array.from({ length: n }, (_, i) => new Date((grid.start + i * grid.step) * 1000).toISOString());
  const series = result.map((s) => {
    const values: (number | null)[] = new Array<number | null>(n).fill(null);
    for (const [t, v] of s.values) {
      const i = Math.round((t - grid.start) / grid.step);
      if (i >= 0 && i < n) values[i] = chartValue(v);
    }
    return { name: seriesName(s.metric), unit: '', values };
  });
  return { time, series };
}

/** A step as PromQL writes durations: 60 -> "1m", 7200 -> "2h", 86400 -> "1d". */
export function stepText(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
