import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { SPAN_DURATIONS_TABLE, type TelemetryStore } from '../../storage/telemetry';
import type { CompiledQuery } from '../query/compile';
import { groupConds, systemClause, type RangeScope } from '../query/scope';
import { coveredHoursSql, latestRunSql } from '../query/windowRows';

/**
 * The duration heatmap from the rows per duration bin and 5 minutes (`span_durations_5m`,
 * telemetry migration 21, rolled up by tracing/query/windowRollupJob.ts) where they hold the
 * spans' counts, and the spans elsewhere (attrDeltasSql.ts durationHeatmapSql).
 *
 * Which rows: a window's latest run, in the hours whose windows' latest rows add up, per type and
 * system, to the hour rollup's count (`span_groups_1h`, fed by the same inserts as the spans). A
 * window's rows hold its spans' count when it was rolled up, and spans only come, so no window
 * holds more than its spans now: the sums are equal only when every window of the hour is
 * current (the check of the per-system rows, rollup.ts). Only whole windows inside the range are
 * read from the rows; the spans of the rest (the partial windows at the edges, the hours not
 * covered: not rolled up yet, or reached by spans since) are read by their time ranges, which the
 * spans' partitions and key select.
 */

const FIVE_MINUTES = 300_000;
const HOUR = 3_600_000;

/** A time range [from, to) in ms. */
export type Range = [number, number];

/** OR of the time ranges over `s.time` (a `DateTime` or `DateTime64` column). */
export function rangesSql(ranges: readonly Range[]): SqlFragment {
  return sql`(${join(
    ranges.map(([a, b]) => sql`(s.time >= ${param.time(new Date(a))} AND s.time < ${param.time(new Date(b))})`),
    ' OR ',
  )})`;
}

/** [gte, lt) less the ranges (sorted, disjoint, inside it). */
export function complement(gte: number, lt: number, ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let at = gte;
  for (const [a, b] of ranges) {
    if (a > at) out.push([at, a]);
    at = b;
  }
  if (lt > at) out.push([at, lt]);
  return out;
}

const scoped = (scope: RangeScope, range: SqlFragment) => {
  const conds = [sql`s.project_id = ${param.uint32(scope.projectId)}`, range];
  const sys = systemClause(scope.systems);
  if (sys) conds.push(sys);
  return join(conds, ' AND ');
};

/** The hours in [h0, h1) whose windows' latest rows hold the hour rollup's count, per type and system. */
function coveredHoursOf(scope: RangeScope, h0: number, h1: number): SqlFragment {
  const range = rangesSql([[h0, h1]]);
  return sql`SELECT toUnixTimestamp(h) AS h FROM (${coveredHoursSql(SPAN_DURATIONS_TABLE, 'weight', scoped(scope, range), range)}) ORDER BY h`;
}

/**
 * The time ranges of the scope the rows answer (whole windows in covered hours, sorted and
 * merged), or null when the heatmap cannot read them: a filter (the rows keep no attributes), a
 * group in the scope, buckets that are not whole 5 minutes, or no covered window.
 */
export async function heatmapRollupRanges(
  store: TelemetryStore,
  scope: RangeScope,
  q: CompiledQuery,
  bucketMs: number,
): Promise<Range[] | null> {
  if (q.where.length || groupConds(scope).length || bucketMs % FIVE_MINUTES !== 0) return null;
  const a = Math.ceil(scope.gte.getTime() / FIVE_MINUTES) * FIVE_MINUTES;
  const b = Math.floor(scope.lt.getTime() / FIVE_MINUTES) * FIVE_MINUTES;
  if (b <= a) return null;
  const h0 = Math.floor(a / HOUR) * HOUR;
  const h1 = Math.ceil(b / HOUR) * HOUR;
  const rows = await store.query<{ h: unknown }>(coveredHoursOf(scope, h0, h1));
  const ranges: Range[] = [];
  for (const r of rows) {
    const h = Number(r.h) * 1000;
    const from = Math.max(h, a);
    const to = Math.min(h + HOUR, b);
    if (to <= from) continue;
    const last = ranges.at(-1);
    if (last && last[1] === from) last[1] = to;
    else ranges.push([from, to]);
  }
  return ranges.length ? ranges : null;
}

/** The rows' counts per bucket (`bucket`: the bucket start of `s.time`) and bin of the ranges, as `t`, `b`, `n`. */
export function heatmapRollupSql(
  scope: RangeScope,
  ranges: readonly Range[],
  bucket: SqlFragment,
  isSpan: SqlFragment,
) {
  const where = rangesSql(ranges);
  return sql`SELECT toUnixTimestamp(${bucket}) AS t, s.bin AS b, sum(s.count) AS n FROM ${ident(SPAN_DURATIONS_TABLE)} AS s WHERE ${scoped(scope, where)} AND ${isSpan} AND ${latestRunSql(SPAN_DURATIONS_TABLE, where)} GROUP BY t, b`;
}
