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
 * system, to the hour rollup's count (`span_groups_1h`, fed by the same inserts as the spans), and
 * in the other hours, the windows whose latest rows hold their minute rows' count. A window's rows
 * hold its spans' count when it was rolled up, and spans only come, so no window holds more than
 * its spans now: the sums are equal only when every window of the hour is current (the check of
 * the per-system rows, rollup.ts). Only whole windows inside the range are read from the rows; the
 * spans of the rest (the partial windows at the edges, windows not rolled up yet or reached by
 * spans since) are read by their time ranges, which the spans' partitions and key select.
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
 * The windows of `ranges` (whole windows, in hours not covered) whose latest rows hold their minute
 * rows' count (`span_groups_1m`, the same inserts as the spans), per type and system: in the hour
 * the job has not finished (a live range's last), the windows it has rolled up.
 */
function heldWindowsSql(scope: RangeScope, ranges: readonly Range[]): SqlFragment {
  const where = scoped(scope, rangesSql(ranges));
  return sql`SELECT toUnixTimestamp(t) AS t FROM (SELECT t, sumIf(c, src = 0) = sumIf(c, src = 1) AS held FROM (SELECT s.type AS type, s.system AS system, toStartOfFiveMinutes(s.time) AS t, sum(s.count) AS c, 0 AS src FROM span_groups_1m AS s WHERE ${where} GROUP BY type, system, t UNION ALL SELECT s.type AS type, s.system AS system, s.time AS t, sum(s.weight) AS c, 1 AS src FROM ${ident(SPAN_DURATIONS_TABLE)} AS s WHERE ${where} AND ${latestRunSql(SPAN_DURATIONS_TABLE, rangesSql(ranges))} GROUP BY type, system, t) GROUP BY type, system, t) GROUP BY t HAVING min(held) = 1 ORDER BY t`;
}

/** Sorted ranges with those that touch merged. */
function merged(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const [from, to] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && last[1] >= from) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * The time ranges of the scope the rows answer (sorted and merged), or null when the heatmap
 * cannot read them: a filter (the rows keep no attributes), a group in the scope, buckets that are
 * not whole 5 minutes, or no window held. The whole windows of covered hours, then, in the other
 * hours, the windows whose rows hold their minute rows' count (a second query, only when some hour
 * of the range is not covered: a live range's last hours, or hours without spans).
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
  const covered = new Set(
    (await store.query<{ h: unknown }>(coveredHoursOf(scope, h0, h1))).map((r) => Number(r.h) * 1000),
  );
  const inRange = (from: number, to: number): Range[] =>
    Math.min(to, b) > Math.max(from, a) ? [[Math.max(from, a), Math.min(to, b)]] : [];
  const hours: Range[] = [];
  const others: Range[] = [];
  for (let h = h0; h < h1; h += HOUR) (covered.has(h) ? hours : others).push(...inRange(h, h + HOUR));
  const windows: Range[] = [];
  if (others.length)
    for (const r of await store.query<{ t: unknown }>(heldWindowsSql(scope, merged(others)))) {
      const t = Number(r.t) * 1000;
      windows.push(...inRange(t, t + FIVE_MINUTES));
    }
  const ranges = merged([...hours, ...windows]);
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
