import type { Name } from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { attrRollupFrom, QUARTER_HOUR, type RollupFilter } from './attrRollup';
import { QUANTILE_LEVELS, type CompiledColumn, type CompiledQuery } from './compile';
import { IS_SPAN_SQL, ROLLUP_ERROR_COUNT_SQL } from './eventTypes';
import { groupConds, systemClause, type RangeScope } from './scope';

/**
 * Answers from the per-minute rollup `span_groups_1m` (telemetry migration 3) when a query only
 * needs what it keeps: grouping by `.group_id` / `.system`, counts, error counts and rates, and
 * min / max / percentiles of `.duration`, with no filters, over whole minutes. Otherwise null and
 * the caller reads `spans_index`. Same column keys and names as the raw query.
 *
 * A query whose filters all test one attribute of ROLLUP_ATTRS reads the attribute rollup
 * instead (attrRollup.ts).
 */

function rollupExpr(n: Name, minutes: number, quantiles: SqlFragment | null, qIndex: number): SqlFragment | null {
  const m = () => param.float64(minutes);
  if (n.func === null) {
    switch (n.attr) {
      case '.group_id':
        return sql`s.group_id`;
      case '.system':
        return sql`s.system`;
      case '.count':
        return sql`sum(s.count)`;
      case '.count_per_min':
        return sql`sum(s.count) / ${m()}`;
      case '.error_count':
        return ROLLUP_ERROR_COUNT_SQL;
      case '.error_rate':
      case '.error_pct':
        return sql`${ROLLUP_ERROR_COUNT_SQL} / sum(s.count)`;
    }
    return null;
  }
  if (n.func === 'count') return sql`sum(s.count)`;
  if (n.func === 'per_min' && n.inner?.func === 'count') return sql`sum(s.count) / ${m()}`;
  if (n.attr !== '.duration') return null;
  // Spans only, as from spans_index (compile.ts spansOnly): log and event rows have no duration.
  if (n.func === 'min') return sql`toFloat64(minOrNullIf(s.min_duration, ${IS_SPAN_SQL}))`;
  if (n.func === 'max') return sql`toFloat64(maxOrNullIf(s.max_duration, ${IS_SPAN_SQL}))`;
  if (QUANTILE_LEVELS[n.func] && quantiles)
    return sql`arrayElement(quantilesTDigestMergeIf(${quantiles})(s.duration, ${IS_SPAN_SQL}), ${param.uint8(qIndex)})`;
  return null;
}

/** The duration percentile columns a rollup's t-digest states answer, and their levels for one quantiles call. */
function durationQuantiles<C extends { name_: Name }>(
  cols: readonly C[],
): { pcols: C[]; quantiles: SqlFragment | null } {
  const pcols = cols.filter((c) => c.name_.func && QUANTILE_LEVELS[c.name_.func] && c.name_.attr === '.duration');
  const quantiles = pcols.length
    ? join(
        pcols.map((c) => QUANTILE_LEVELS[c.name_.func!]!),
        ', ',
      )
    : null;
  return { pcols, quantiles };
}

/**
 * `bucketMs`: time series buckets; hourly rows are only used when buckets are whole hours, quarter-hour
 * rows when they are whole quarter hours.
 * `filter`: the query's filters over the attribute rollup (rollupFilter), if they allow it.
 */
export function rollupSelect(
  q: CompiledQuery,
  cols: (CompiledColumn & { key: string })[],
  scope: RangeScope,
  minutes: number,
  bucketMs?: number,
  filter?: RollupFilter | null,
): { select: SqlFragment[]; from: SqlFragment } | null {
  if (!wholeMinutes(scope) || q.having.length || (q.where.length && !filter)) return null;
  const from = q.where.length ? attrRollupFrom(scope, q.where, filter!) : rollupFrom(scope, periodOf(bucketMs));
  if (!from) return null;
  const { pcols, quantiles } = durationQuantiles(cols);
  const select: SqlFragment[] = [];
  for (const c of cols) {
    let e: SqlFragment | null;
    if (c.hidden)
      e = c.name === '.system' ? sql`any(s.system)` : c.name === 'display.name' ? sql`any(s.display_name)` : null;
    else e = rollupExpr(c.name_, minutes, quantiles, pcols.indexOf(c) + 1);
    if (!e) return null;
    select.push(sql`${e} AS ${ident(c.key)}`);
  }
  return { select, from };
}

const HOUR = 3_600_000;
const wholeMinutes = (scope: RangeScope) => scope.gte.getTime() % 60_000 === 0 && scope.lt.getTime() % 60_000 === 0;

/** Per-system totals from the rollups (systems endpoint without filters), or null. */
export function rollupSystemsSql(q: CompiledQuery, scope: RangeScope): SqlFragment | null {
  if (!wholeMinutes(scope) || q.where.length) return null;
  return sql`SELECT s.system AS system, sum(s.count) AS count, ${ROLLUP_ERROR_COUNT_SQL} AS errorCount, uniqExact(s.group_id) AS groupCount FROM ${rollupFrom(scope)} GROUP BY s.system ORDER BY system ASC LIMIT 1000`;
}

/** Rollup rows of one period: whole hours, whole quarter hours, or minutes only. */
export type RollupPeriod = 'hour' | 'quarter' | 'minute';

/** The coarsest rollup rows a series of `bucketMs` buckets can add up (groups: no buckets, hours). */
export const periodOf = (bucketMs?: number): RollupPeriod =>
  bucketMs === undefined || bucketMs % HOUR === 0 ? 'hour' : bucketMs % QUARTER_HOUR === 0 ? 'quarter' : 'minute';

/**
 * The quarter-hour group rows: the attribute rollup's rows of one attribute (telemetry migration
 * 10). Every span has one row per attribute there (its value, or ''), so the rows of one
 * attribute, summed over its values, are the groups' quarter hours: the same counts, errors,
 * minimum and maximum as the spans, and t-digest states of the same spans. The environment has
 * the fewest values (at 100M spans a day: 47,481 rows over 24 h, against 647,765 minute rows).
 */
const QUARTER_ROWS_ATTR = 'deployment.environment';
const GROUP_ROW_COLUMNS = sql`project_id, type, system, group_id, time, count, error_count, min_duration, max_duration, duration, display_name`;

/**
 * The rollup rows of the range: whole hours from `span_groups_1h` (or whole quarter hours, see
 * QUARTER_ROWS_ATTR), the minutes before the first and after the last from `span_groups_1m`
 * (their states merge alike).
 */
function rollupFrom(scope: RangeScope, period: RollupPeriod = 'hour'): SqlFragment {
  const scoped = (range: SqlFragment) => {
    const conds = [sql`project_id = ${param.uint32(scope.projectId)}`, range];
    const sys = systemClause(scope.systems);
    if (sys) conds.push(sys);
    conds.push(...groupConds(scope));
    return join(conds, ' AND ');
  };
  const between = (a: number, b: number) =>
    sql`(s.time >= ${param.time(new Date(a))} AND s.time < ${param.time(new Date(b))})`;
  const gte = scope.gte.getTime();
  const lt = scope.lt.getTime();
  const step = period === 'hour' ? HOUR : QUARTER_HOUR;
  const h0 = Math.ceil(gte / step) * step;
  const h1 = Math.floor(lt / step) * step;
  if (period === 'minute' || h1 - h0 < 2 * step) return sql`span_groups_1m AS s WHERE ${scoped(between(gte, lt))}`;
  const edges = sql`(${between(gte, h0)} OR ${between(h1, lt)})`;
  if (period === 'hour')
    return sql`(SELECT * FROM span_groups_1h AS s WHERE ${scoped(between(h0, h1))} UNION ALL SELECT * FROM span_groups_1m AS s WHERE ${scoped(edges)}) AS s`;
  return sql`(SELECT ${GROUP_ROW_COLUMNS} FROM span_attr_groups_15m AS s WHERE ${scoped(between(h0, h1))} AND s.attr_key = ${param.string(QUARTER_ROWS_ATTR)} UNION ALL SELECT ${GROUP_ROW_COLUMNS} FROM span_groups_1m AS s WHERE ${scoped(edges)}) AS s`;
}

/**
 * The rows of buckets shorter than a quarter hour: the per-system rows (systemRollupFrom) for
 * whole 5 minutes (24 h), else the minute rows (1-3 minutes: ranges up to 15 h). At 1 h the
 * minute rows are ~1/150 of the spans at 100M spans a day and ~1/25 at 10M, and their states
 * merged took 40 and 28 ms against 209 and 43 for the spans' (docs/benchmarks.md). Null for whole
 * 5 minutes without whole windows or with groups in the scope (their spans are read).
 */
function minutesOrSystemRows(scope: RangeScope, bucketMs: number): SqlFragment | null {
  if (bucketMs % FIVE_MINUTES === 0) return systemRollupFrom(scope);
  return sql`(SELECT ${SYSTEM_ROW_COLUMNS} FROM ${rollupFrom(scope, 'minute')}) AS s`;
}

/**
 * The percentiles chart without filters from the group rollups, when the range is whole minutes
 * (else null): whole hours or quarter hours from their rows, shorter buckets from
 * minutesOrSystemRows. The rows of each bucket's period add up to the bucket (`bucket`: the
 * bucket start of `s.time`). The same counts, errors and maxima as the spans; percentiles from
 * merged t-digest states.
 */
export function rollupPercentilesSql(
  q: CompiledQuery,
  scope: RangeScope,
  bucketMs: number,
  bucket: SqlFragment,
  withDurations: boolean,
): SqlFragment | null {
  const period = periodOf(bucketMs);
  if (!wholeMinutes(scope) || q.where.length) return null;
  const from = period !== 'minute' ? rollupFrom(scope, period) : minutesOrSystemRows(scope, bucketMs);
  if (!from) return null;
  const durations = withDurations
    ? sql`, ${ROLLUP_ERROR_COUNT_SQL} AS errorCount, quantilesTDigestMergeIf(0.5, 0.9, 0.99)(s.duration, ${IS_SPAN_SQL}) AS q, maxOrNullIf(s.max_duration, ${IS_SPAN_SQL}) AS max`
    : sql``;
  return sql`SELECT toUnixTimestamp(${bucket}) AS t, sum(s.count) AS count${durations} FROM ${from} GROUP BY t ORDER BY t ASC LIMIT 10000`;
}

/**
 * A span list without filters sorted by duration: the `rank`-th largest of the group rollup rows'
 * longest durations over the range (whole minutes; else null; no row when there are fewer rows).
 * Each row holds other spans than the others and its longest is one of them, so at least `rank`
 * spans of the range last that long or longer (attrRollup.ts rollupDurationFloor, for a filter).
 */
export function rollupGroupsDurationFloor(q: CompiledQuery, scope: RangeScope, rank: number): SqlFragment | null {
  if (!wholeMinutes(scope) || q.where.length) return null;
  return sql`SELECT s.max_duration AS floor FROM ${rollupFrom(scope)} ORDER BY floor DESC LIMIT 1 OFFSET ${param.uint32(rank - 1)}`;
}

const FIVE_MINUTES = 300_000;
const SYSTEM_ROW_COLUMNS = sql`project_id, type, system, time, count, error_count, min_duration, max_duration, duration`;

/**
 * The rollup rows of the range per system and 5 minutes: in each hour whose windows all hold their
 * minute rows' count, the `span_systems_5m` rows of each whole window's latest run (telemetry
 * migration 20); the minute rows (`span_groups_1m`) everywhere else: hours with a window not
 * rolled up yet or one spans reached since, and the minutes before the first and after the last
 * whole window. So counts, errors and extremes are the minute rows' (the spans'); percentiles
 * merge t-digest states. Null when the scope selects groups (the 5-minute rows have none) or holds
 * no whole window.
 *
 * An hour is checked whole, against the hour rollup (`span_groups_1h`, fed by the same inserts as
 * the minute rows): per type and system, the latest runs' counts of its windows add up to the
 * hour row's count. A window's rows hold its minute rows' count when it was rolled up, and minute
 * rows only gain spans, so no window holds more than its minute rows now: the sums are equal only
 * when every window holds its minute rows' count. That reads ~50 times fewer rows than the
 * minute rows' counts per window, and leaves the minute rows' states unread but in the hours
 * not covered (their time alone, in PREWHERE).
 */
function systemRollupFrom(scope: RangeScope): SqlFragment | null {
  const w = systemWindows(scope);
  if (!w) return null;
  const { a, b, scoped, latest } = w;
  // The covered hours as constants when the caller asked them first (systemHoursSql): the subquery
  // in both branches of the UNION built its sets for each (at 100M, 24 h: ~140 -> ~90 ms + ~21 to ask).
  const covered = scope.systemHours
    ? scope.systemHours.length
      ? sql`toUnixTimestamp(toStartOfHour(s.time)) IN (${join(
          scope.systemHours.map((h) => sql`${param.uint32(h)}`),
          ', ',
        )})`
      : sql`0`
    : sql`toStartOfHour(s.time) GLOBAL IN (${coveredHoursSql(w)})`;
  const rolled = sql`s.time >= ${param.time(new Date(a))} AND s.time < ${param.time(new Date(b))} AND ${covered}`;
  return sql`(SELECT ${SYSTEM_ROW_COLUMNS} FROM span_systems_5m AS s WHERE ${scoped(a, b)} AND ${rolled} AND ${latest} UNION ALL SELECT ${SYSTEM_ROW_COLUMNS} FROM span_groups_1m AS s PREWHERE NOT (${rolled}) WHERE ${scoped(scope.gte.getTime(), scope.lt.getTime())}) AS s`;
}

/** The whole 5-minute windows of a scope without groups and what reading them needs; else null. */
function systemWindows(scope: RangeScope) {
  if (groupConds(scope).length) return null;
  const scoped = (a: number, b: number) => {
    const conds = [
      sql`project_id = ${param.uint32(scope.projectId)}`,
      sql`s.time >= ${param.time(new Date(a))} AND s.time < ${param.time(new Date(b))}`,
    ];
    const sys = systemClause(scope.systems);
    if (sys) conds.push(sys);
    return join(conds, ' AND ');
  };
  const a = Math.ceil(scope.gte.getTime() / FIVE_MINUTES) * FIVE_MINUTES;
  const b = Math.floor(scope.lt.getTime() / FIVE_MINUTES) * FIVE_MINUTES;
  if (b <= a) return null;
  const hours = scoped(Math.floor(a / HOUR) * HOUR, Math.ceil(b / HOUR) * HOUR);
  // Each window's latest run: one row per (type, system) a run (each INSERT of the job has its run).
  const latest = sql`(s.system, s.time, s.run) GLOBAL IN (SELECT s.system, s.time, max(s.run) FROM span_systems_5m AS s WHERE ${hours} GROUP BY s.system, s.time)`;
  return { a, b, scoped, hours, latest };
}

/** The hours (`h`) of the windows' range whose windows all hold their minute rows' count (systemRollupFrom). */
const coveredHoursSql = ({ hours, latest }: { hours: SqlFragment; latest: SqlFragment }) =>
  sql`SELECT h FROM (SELECT h, sumIf(c, src = 0) = sumIf(c, src = 1) AS held FROM (SELECT s.type AS type, s.system AS system, toStartOfHour(s.time) AS h, sum(s.count) AS c, 0 AS src FROM span_groups_1h AS s WHERE ${hours} GROUP BY type, system, h UNION ALL SELECT s.type AS type, s.system AS system, toStartOfHour(s.time) AS h, sum(s.count) AS c, 1 AS src FROM span_systems_5m AS s WHERE ${hours} AND ${latest} GROUP BY type, system, h) GROUP BY type, system, h) GROUP BY h HAVING min(held) = 1`;

/**
 * When rollup SQL of `bucketMs` buckets over `scope` reads the per-system rows with their hour check
 * inline (buckets of whole 5 minutes from minutesOrSystemRows, whole windows, no groups, no
 * `systemHours` yet; the caller knows it took that way): the query of those hours
 * (`h`, unix seconds), to run first and pass back as `scope.systemHours`. Else null.
 */
export function systemHoursSql(scope: RangeScope, bucketMs: number): SqlFragment | null {
  if (scope.systemHours || bucketMs % FIVE_MINUTES !== 0) return null;
  const w = systemWindows(scope);
  return w && sql`SELECT toUnixTimestamp(h) AS h FROM (${coveredHoursSql(w)}) ORDER BY h`;
}

/** The system of a group query that is `where .system = "<name>"` alone, else null. */
export function systemOfGroupQuery(text: string): string | null {
  const m = /^\s*where\s+\.system\s*=\s*"([^"\\]*)"\s*$/.exec(text);
  return m ? m[1] : null;
}

/** The columns of a group-stats request over rollup rows of `bucketMs` buckets; null when one has no rollup form. */
function statsSelect(cols: readonly { name_: Name; key: string }[], bucketMs: number): SqlFragment[] | null {
  const { pcols, quantiles } = durationQuantiles(cols);
  const select: SqlFragment[] = [];
  for (const c of cols) {
    const e = rollupExpr(c.name_, bucketMs / 60_000, quantiles, pcols.indexOf(c) + 1);
    if (!e) return null;
    select.push(sql`${e} AS ${ident(c.key)}`);
  }
  return select;
}

/**
 * The Overview's sparklines by system (groupsStatsSql with each group query `where .system = X`)
 * from the per-system rows or the minute rows (minutesOrSystemRows), when the query has no filter
 * and every column is one the rollups keep; else null.
 */
export function rollupSystemStatsSql(
  q: CompiledQuery,
  scope: RangeScope,
  cols: readonly { name_: Name; key: string }[],
  systems: readonly string[],
  bucketMs: number,
  bucket: SqlFragment,
): SqlFragment | null {
  if (!wholeMinutes(scope) || q.where.length || q.having.length || bucketMs % 60_000 !== 0) return null;
  const from = minutesOrSystemRows(scope, bucketMs);
  if (!from || systems.length === 0) return null;
  const select = statsSelect(cols, bucketMs);
  if (!select) return null;
  const index = join(
    systems.map((name, i) => sql`s.system = ${param.string(name)}, ${param.uint32(i)}`),
    ', ',
  );
  return sql`SELECT multiIf(${index}, ${param.uint32(systems.length)}) AS g, toUnixTimestamp(${bucket}) AS t, ${join(select, ', ')} FROM ${from} WHERE s.system IN (${join(
    systems.map((name) => sql`${param.string(name)}`),
    ', ',
  )}) GROUP BY g, t ORDER BY g ASC, t ASC LIMIT ${param.uint32(10_000 * systems.length)}`;
}

/** The group id of a group query that is `where .group_id = <id>` alone, else null. */
export function groupIdOfGroupQuery(text: string): bigint | null {
  const m = /^\s*where\s+\.group_id\s*=\s*"?(\d{1,20})"?\s*$/.exec(text);
  return m && BigInt(m[1]) < 2n ** 64n ? BigInt(m[1]) : null;
}

/**
 * Explore's sparklines by group (groupsStatsSql with each group query `where .group_id = N`, the
 * series a groups answer carries) from the group rollup rows of the buckets' period (rollupFrom:
 * hours, quarter hours or minutes), only those groups' rows, when the query has no filter and every
 * column is one the rollups keep; else null. The same counts, errors and maxima as the spans;
 * percentiles from merged t-digest states.
 */
export function rollupGroupStatsSql(
  q: CompiledQuery,
  scope: RangeScope,
  cols: readonly { name_: Name; key: string }[],
  groupIds: readonly bigint[],
  bucketMs: number,
  bucket: SqlFragment,
): SqlFragment | null {
  if (!wholeMinutes(scope) || q.where.length || q.having.length || bucketMs % 60_000 !== 0) return null;
  if (groupIds.length === 0 || scope.groupId !== undefined || scope.groupsIn) return null;
  const select = statsSelect(cols, bucketMs);
  if (!select) return null;
  const ids = join(
    groupIds.map((id) => sql`${param.uint64(id)}`),
    ', ',
  );
  const from = rollupFrom({ ...scope, groupsIn: ids }, periodOf(bucketMs));
  const index = join(
    groupIds.map((id, i) => sql`s.group_id = ${param.uint64(id)}, ${param.uint32(i)}`),
    ', ',
  );
  return sql`SELECT multiIf(${index}, ${param.uint32(groupIds.length)}) AS g, toUnixTimestamp(${bucket}) AS t, ${join(select, ', ')} FROM (SELECT ${GROUP_ROW_COLUMNS} FROM ${from}) AS s GROUP BY g, t ORDER BY g ASC, t ASC LIMIT ${param.uint32(10_000 * groupIds.length)}`;
}
