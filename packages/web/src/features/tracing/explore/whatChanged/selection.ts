import type { AttrDeltaValue } from '@lantern/shared';
import { formatDuration } from '@lantern/shared';
import { quoteValue } from '../../../../lib/query/facetFilter';
import type { HeatmapData } from '../../../../components/charts/heatmapOption';

/** The selections of "What changed" as query-language `where` parts, and the filters its values add. */

/** The errors: spans whose status is error. */
export const ERRORS_SELECTION = 'where .status_code = "error"';

/** A duration in ns as a literal of the query language, in the largest unit it is a whole number of. */
export function durationLiteral(ns: number): string {
  for (const [unit, size] of [
    ['s', 1e9],
    ['ms', 1e6],
    ['us', 1e3],
  ] as const)
    if (ns >= size && ns % size === 0) return `${ns / size}${unit}`;
  return `${Math.round(ns)}ns`;
}

/** The length of a heatmap's time bucket (a minute when it has one bucket). */
const bucketMs = (xAxis: readonly string[]) =>
  xAxis.length > 1 ? Date.parse(xAxis[1]) - Date.parse(xAxis[0]) : 60_000;

const clamp = (i: number, n: number) => Math.min(Math.max(Math.round(i), 0), n - 1);

/**
 * The spans of a rectangle of heatmap cells (x: time buckets, y: duration bins, both inclusive index
 * ranges): from the first bucket's start to the last one's end, from the lowest bin's start to the
 * highest one's end.
 */
export function heatmapSelection(h: HeatmapData, x: readonly [number, number], y: readonly [number, number]): string {
  const [x0, x1] = [clamp(Math.min(...x), h.xAxis.length), clamp(Math.max(...x), h.xAxis.length)];
  const [y0, y1] = [clamp(Math.min(...y), h.yAxis.length), clamp(Math.max(...y), h.yAxis.length)];
  const from = new Date(Date.parse(h.xAxis[x0])).toISOString();
  const to = new Date(Date.parse(h.xAxis[x1]) + bucketMs(h.xAxis)).toISOString();
  return [
    `where .time >= "${from}" and .time < "${to}"`,
    `and .duration >= ${durationLiteral(h.yAxis[y0][0])} and .duration < ${durationLiteral(h.yAxis[y1][1])}`,
  ].join(' ');
}

/** How a value of a key reads: a numeric bin as its range (durations as durations). */
export function valueLabel(key: string, v: AttrDeltaValue): string {
  if (!v.range && key === '.duration') return formatDuration(Number(v.value));
  if (!v.range) return v.value === '' ? '<empty>' : v.value;
  const f = (n: number) => (key === '.duration' ? formatDuration(n) : String(+n.toPrecision(6)));
  return `${f(v.range[0])} – ${f(v.range[1])}`;
}

/** The `where` part a click on a value adds to the query: the value, or a numeric bin's range. */
export function valueFilter(key: string, v: AttrDeltaValue, last: boolean): string {
  if (!v.range) return `where ${key} = ${quoteValue(v.value)}`;
  const lit = (n: number) => (key === '.duration' ? durationLiteral(n) : String(n));
  return `where ${key} >= ${lit(v.range[0])} and ${key} ${last ? '<=' : '<'} ${lit(v.range[1])}`;
}
