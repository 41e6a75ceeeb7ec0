import { BUILTIN_FIELDS, isAggregate, isBuiltin, parsePart, type Name, type Order } from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { QUARTER_HOUR, rollupDurationFloor, rollupFilter, rollupSpanCount } from './attrRollup';
import {
  periodOf,
  rollupGroupsDurationFloor,
  rollupPercentilesSql,
  rollupSelect,
  rollupSystemStatsSql,
  systemHoursSql,
  rollupSystemsSql,
  systemOfGroupQuery,
  groupIdOfGroupQuery,
  rollupGroupStatsSql,
} from './rollup';
import { compileQuery, QUANTILE_LEVELS, shareQuantiles, type CompiledColumn, type CompiledQuery } from './compile';
import { attrExpr, hasAttrExpr, nameExpr, ROW_ATTR_KEYS_SQL } from './compileExpr';
import { IS_ERROR_SQL, IS_SPAN_SQL } from './eventTypes';
import { whereSql, type RangeScope } from './scope';

/**
 * SQL for each tracing endpoint, as pure functions of the request (golden-tested). Output columns
 * are aliased `g<i>` (group-by), `c<i>` (aggregates), `h<i>` (hidden) so no user text ever
 * becomes an identifier; callers map them back to column names.
 */

const FROM = sql`FROM spans_index AS s`;
const minutesOf = (scope: { gte: Date; lt: Date }) =>
  Math.max((scope.lt.getTime() - scope.gte.getTime()) / 60_000, 1 / 60);

export function systemsSql(scope: RangeScope, query: string) {
  const q = compileQuery(query, 'where', { minutes: minutesOf(scope) });
  const raw = sql`SELECT s.system AS system, sum(s.count) AS count, sumIf(s.count, ${IS_ERROR_SQL}) AS errorCount, uniqExact(s.group_id) AS groupCount ${FROM} WHERE ${whereSql(scope, q)} GROUP BY s.system ORDER BY system ASC LIMIT 1000`;
  return { q, sql: rollupSystemsSql(q, scope) ?? raw };
}

export interface OutputColumn extends CompiledColumn {
  /** Alias in the SQL answer. */
  key: string;
}

function outputColumns(q: CompiledQuery): OutputColumn[] {
  return [
    ...q.groupBy.map((c, i) => ({ ...c, key: `g${i}` })),
    ...q.columns.map((c, i) => ({ ...c, key: `c${i}` })),
    ...q.hidden.map((c, i) => ({ ...c, key: `h${i}` })),
  ];
}

const selectList = (cols: OutputColumn[]) =>
  join(
    cols.map((c) => sql`${c.expr} AS ${ident(c.key)}`),
    ', ',
  );

/** Sort by the named column if the query has it; else the first aggregate desc; else the first group asc. */
function chooseOrder(
  cols: OutputColumn[],
  sortBy: string | undefined,
  sortDesc: boolean | undefined,
): { order: Order; col: OutputColumn } | null {
  const visible = cols.filter((c) => !c.hidden);
  const named = sortBy ? visible.find((c) => c.name === sortBy) : undefined;
  if (named) return { order: { column: named.name, desc: sortDesc ?? true }, col: named };
  const agg = visible.find((c) => !c.isGroup);
  if (agg) return { order: { column: agg.name, desc: true }, col: agg };
  if (visible[0]) return { order: { column: visible[0].name, desc: false }, col: visible[0] };
  return null;
}

export function groupsSql(
  scope: RangeScope,
  query: string,
  opts: { sortBy?: string; sortDesc?: boolean; limit: number },
) {
  const o = { minutes: minutesOf(scope) };
  const q = compileQuery(query, 'full', o);
  const cols = outputColumns(q);
  const chosen = chooseOrder(cols, opts.sortBy, opts.sortDesc);
  if (!chosen || q.columns.length + q.groupBy.length === 0)
    return { q, cols, order: { column: opts.sortBy ?? '', desc: opts.sortDesc ?? true }, sql: null };
  const groupBy = q.groupBy.length
    ? sql` GROUP BY ${join(
        cols.filter((c) => c.isGroup).map((c) => sql`${ident(c.key)}`),
        ', ',
      )}`
    : sql``;
  const having = q.having.length ? sql` HAVING ${join(q.having, ' AND ')}` : sql``;
  const dir = chosen.order.desc ? sql`DESC` : sql`ASC`;
  // Group keys break ties so pages are stable.
  const ties = cols.filter((c) => c.isGroup && c !== chosen.col).map((c) => sql`, ${ident(c.key)} ASC`);
  const tail = sql`${groupBy}${having} ORDER BY ${ident(chosen.col.key)} ${dir}${join(ties, '')} LIMIT ${param.uint32(opts.limit + 1)}`;
  const rollup = rollupSelect(q, cols, scope, o.minutes, undefined, rollupFilter(query, q, 'full', o, scope));
  if (rollup)
    return { q, cols, order: chosen.order, sql: sql`SELECT ${join(rollup.select, ', ')} FROM ${rollup.from}${tail}` };
  return {
    q,
    cols,
    order: chosen.order,
    sql: sql`SELECT ${selectList(cols)} ${FROM} WHERE ${whereSql(scope, q)}${tail}`,
  };
}

/** Candidate bucket sizes in minutes (reference §5.1), fallback 24h. */
const PERIODS_MIN = [1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 240, 300, 360, 720];
export function groupingPeriodMs(rangeMs: number, maxPoints: number): number {
  for (const m of PERIODS_MIN) if (Math.floor(rangeMs / (m * 60_000)) <= maxPoints) return m * 60_000;
  return 1440 * 60_000;
}

const bucketExpr = (bucketMs: number) =>
  sql`toStartOfInterval(s.time, toIntervalMinute(${param.uint32(bucketMs / 60_000)}))`;

/** A time series answer keeps this many series, the largest by their first column's total (service.ts). */
export const TIMESERIES_SERIES = 100;

export function timeseriesSql(scope: RangeScope, query: string) {
  const bucketMs = groupingPeriodMs(scope.lt.getTime() - scope.gte.getTime(), 120);
  const ceil = (d: Date) => new Date(Math.ceil(d.getTime() / bucketMs) * bucketMs);
  const aligned: RangeScope = { ...scope, gte: ceil(scope.gte), lt: ceil(scope.lt) };
  const o = { minutes: bucketMs / 60_000 };
  const q = compileQuery(query, 'full', o);
  // Every numeric aggregate is plotted (the reference's first 4 left out p99 of the default query).
  q.columns = q.columns.filter((c) => c.isNum);
  const cols = outputColumns(q);
  if (q.columns.length === 0) return { q, cols, bucketMs, scope: aligned, sql: null, ranked: null };
  const having = q.having.length ? sql` HAVING ${join(q.having, ' AND ')}` : sql``;
  const bucket = sql`toUnixTimestamp(${bucketExpr(bucketMs)}) AS t`;
  // Rollup rows for buckets of whole quarter hours (hour or quarter-hour rows, rollup.ts). Minute
  // rows only for the groups that can be kept (topGroups): every group's minute rows merge a
  // t-digest state per group and minute, which costs more than reading raw spans when groups see
  // about a span a minute (measured in bench/tracing), where the kept groups' are at most 100 x 60
  // states an hour (~60 ms at 100M spans a day against ~320 ms for their spans). A filter on one
  // rollup attribute reads quarter-hour rows of that attribute's value instead.
  const filter = q.where.length && bucketMs % QUARTER_HOUR === 0 ? rollupFilter(query, q, 'full', o, aligned) : null;
  const groups = topGroups(query, q, cols, aligned, o, bucketMs);
  const fromRollup = (cs: OutputColumn[], sc: RangeScope) =>
    periodOf(bucketMs) !== 'minute' || groups ? rollupSelect(q, cs, sc, o.minutes, bucketMs, filter) : null;
  const rollupRows = fromRollup(cols, aligned) !== null;
  const groupBy = join([...cols.filter((c) => c.isGroup).map((c) => sql`${ident(c.key)}`), sql`t`], ', ');
  const tail = sql` GROUP BY ${groupBy}${having} ORDER BY t ASC LIMIT 100000`;
  const text = (sc: RangeScope) => {
    const rollup = rollupRows ? fromRollup(cols, sc) : null;
    return rollup
      ? sql`SELECT ${join(rollup.select, ', ')}, ${bucket} FROM ${rollup.from}${tail}`
      : sql`SELECT ${selectList(cols)}, ${bucket} ${FROM} WHERE ${whereSql(sc, q)}${tail}`;
  };
  return {
    q,
    cols,
    bucketMs,
    scope: aligned,
    sql: text(aligned),
    /** The same answer from the groups that can rank among the kept series only (topGroups), or null. */
    ranked: groups && text({ ...aligned, groupsIn: groups }),
  };
}

/**
 * A time series keeps the TIMESERIES_SERIES series with the largest totals of its first column.
 * When that column is a count or a rate of counts (`.count`, `.count_per_min`, `count()`,
 * `per_min(count())`) and another builds or merges t-digests (the percentiles), only the groups
 * whose span count over the range is at least the TIMESERIES_SERIES-th largest (`WITH TIES`) can
 * be kept, and the query needs to read those alone: the SQL of their ids, from a rollup's counts
 * (the rollup of the filter's attribute whatever the systems, or of the groups without a filter;
 * the same counts as the spans', which are all in the rollups by their views). Exact: a series'
 * total is its count over the bucket minutes (the sum of `n / m` over at most a few hundred buckets,
 * rounded far below `1 / m` for any count under 10^13), so a group of a smaller count ranks below
 * every one of them, ties included. Only for `group by .group_id` without aggregate filters (a
 * HAVING decides per bucket on any column); else null.
 */
function topGroups(
  query: string,
  q: CompiledQuery,
  cols: OutputColumn[],
  scope: RangeScope,
  o: { minutes: number },
  bucketMs: number,
): SqlFragment | null {
  const groups = cols.filter((c) => c.isGroup);
  const nums = cols.filter((c) => !c.isGroup && !c.hidden);
  const [group, first] = [groups[0], nums[0]];
  if (q.having.length || groups.length !== 1 || group.name_.func !== null || group.name_.attr !== '.group_id')
    return null;
  if (!first || !isCount(first.name_) || !nums.some((c) => c.name_.func && QUANTILE_LEVELS[c.name_.func])) return null;
  // No state merged here: the attribute rollup serves any systems (its rows carry type and system).
  const filter =
    q.where.length && bucketMs % QUARTER_HOUR === 0 ? rollupFilter(query, q, 'full', o, scope, true) : null;
  const rollup = rollupSelect(q, [group, first], scope, o.minutes, bucketMs, filter);
  return (
    rollup &&
    sql`SELECT s.group_id FROM ${rollup.from} GROUP BY s.group_id ORDER BY sum(s.count) DESC LIMIT ${param.uint32(TIMESERIES_SERIES)} WITH TIES`
  );
}

/** A count or a count per minute: a series' total orders as the group's count does. */
const isCount = (n: Name) =>
  n.func === null
    ? n.attr === '.count' || n.attr === '.count_per_min'
    : n.func === 'count' || (n.func === 'per_min' && n.inner?.func === 'count' && !n.inner.inner);

export function percentilesSql(scope: RangeScope, query: string, withDurations: boolean) {
  const bucketMs = groupingPeriodMs(scope.lt.getTime() - scope.gte.getTime(), 300);
  const q = compileQuery(query, 'filters', { minutes: bucketMs / 60_000 });
  const durations = withDurations
    ? sql`, sumIf(s.count, ${IS_ERROR_SQL}) AS errorCount, quantilesTDigestIf(0.5, 0.9, 0.99)(s.duration, ${IS_SPAN_SQL}) AS q, maxOrNullIf(s.duration, ${IS_SPAN_SQL}) AS max`
    : sql``;
  const text = sql`SELECT toUnixTimestamp(${bucketExpr(bucketMs)}) AS t, sum(s.count) AS count${durations} ${FROM} WHERE ${whereSql(scope, q)} GROUP BY t ORDER BY t ASC LIMIT 10000`;
  const rollup = rollupPercentilesSql(q, scope, bucketMs, bucketExpr(bucketMs), withDurations);
  // Buckets shorter than a quarter hour read minutesOrSystemRows (rollup.ts).
  const systemHours = rollup && periodOf(bucketMs) === 'minute' ? systemHoursSql(scope, bucketMs) : null;
  return { q, bucketMs, sql: rollup ?? text, systemHours };
}

/** The aggregate columns of a group-stats request, each aliased `c<i>`; what is wrong with the others. */
function statsColumns(columns: readonly string[], o: { minutes: number }) {
  const cols: { name: string; name_: Name; key: string; expr: SqlFragment }[] = [];
  const errors: string[] = [];
  columns.forEach((text, i) => {
    const p = parsePart(text);
    const col = p.ast?.kind === 'select' && p.ast.columns.length === 1 ? p.ast.columns[0] : undefined;
    if (!col) return void errors.push(`column ${JSON.stringify(text)}: ${p.error?.message ?? 'must be one column'}`);
    if (!isAggregate(col.name)) return void errors.push(`column ${JSON.stringify(text)}: must be an aggregate`);
    try {
      cols.push({ name: text, name_: col.name, key: `c${i}`, expr: nameExpr(col.name, o) });
    } catch (e) {
      errors.push(`column ${JSON.stringify(text)}: ${(e as Error).message}`);
    }
  });
  // The sparklines' {p50,p90,p99}(.duration): one digest per row, not one per column.
  shareQuantiles(cols, o);
  const select = join(
    cols.map((c) => sql`${c.expr} AS ${ident(c.key)}`),
    ', ',
  );
  return { cols, errors, select };
}

export function groupStatsSql(scope: RangeScope, query: string, columns: readonly string[]) {
  const bucketMs = groupingPeriodMs(scope.lt.getTime() - scope.gte.getTime(), 300);
  const o = { minutes: bucketMs / 60_000 };
  const q = compileQuery(query, 'filters', o);
  const { cols, errors, select } = statsColumns(columns, o);
  const text = sql`SELECT toUnixTimestamp(${bucketExpr(bucketMs)}) AS t, ${select} ${FROM} WHERE ${whereSql(scope, q)} GROUP BY t ORDER BY t ASC LIMIT 10000`;
  return { q, bucketMs, cols, errors, sql: text };
}

/**
 * The group-stats of several groups in one query (the series a groups answer carries): each group
 * is its `_query` (a `where` part) on top of the request's query; a span counts for the first group
 * whose filter it passes (`g`, its index; group-by values make the groups disjoint), each answer row
 * is a (group, bucket). The same buckets and columns as groupStatsSql for each group alone.
 */
export function groupsStatsSql(
  scope: RangeScope,
  query: string,
  columns: readonly string[],
  groupQueries: readonly string[],
) {
  const bucketMs = groupingPeriodMs(scope.lt.getTime() - scope.gte.getTime(), 300);
  const o = { minutes: bucketMs / 60_000 };
  const q = compileQuery(query, 'filters', o);
  const { cols, errors, select } = statsColumns(columns, o);
  const conds = groupQueries.map((g) => {
    const where = compileQuery(g, 'filters', o).where;
    return where.length ? sql`(${join(where, ' AND ')})` : sql`1`;
  });
  const index = join(
    conds.map((c, i) => sql`${c}, ${param.uint32(i)}`),
    ', ',
  );
  const text = sql`SELECT multiIf(${index}, ${param.uint32(groupQueries.length)}) AS g, toUnixTimestamp(${bucketExpr(bucketMs)}) AS t, ${select} ${FROM} WHERE ${whereSql(scope, q)} AND (${join(conds, ' OR ')}) GROUP BY g, t ORDER BY g ASC, t ASC LIMIT ${param.uint32(10_000 * Math.max(groupQueries.length, 1))}`;
  // One group per system (the Overview's sparklines): the per-system 5-minute rows; one per group
  // id (Explore's): the group rollup rows (rollup.ts).
  const systems = groupQueries.map(systemOfGroupQuery);
  const groupIds = groupQueries.map(groupIdOfGroupQuery);
  const bySystem = systems.every((x): x is string => x !== null);
  const rollup =
    errors.length > 0
      ? null
      : bySystem
        ? rollupSystemStatsSql(q, scope, cols, systems, bucketMs, bucketExpr(bucketMs))
        : groupIds.every((x): x is bigint => x !== null)
          ? rollupGroupStatsSql(q, scope, cols, groupIds, bucketMs, bucketExpr(bucketMs))
          : null;
  return {
    q,
    bucketMs,
    cols,
    errors,
    sql: groupQueries.length ? (rollup ?? text) : null,
    systemHours: groupQueries.length && rollup && bySystem ? systemHoursSql(scope, bucketMs) : null,
  };
}

/** Span list: a page of (trace id, span id) and the total count of the same filter. */
export function spansSql(
  scope: RangeScope,
  query: string,
  opts: { sortBy?: string; sortDesc?: boolean; page: number; limit: number; eventsOnly: boolean },
) {
  const o = { minutes: minutesOf(scope) };
  const q = compileQuery(query, 'filters', o);
  const fallback: Order = { column: opts.eventsOnly ? '.time' : '.duration', desc: true };
  let order: Order = fallback;
  let sortName: Name = { func: null, attr: fallback.column, text: fallback.column, start: 0, end: 0 };
  if (opts.sortBy) {
    const p = parsePart(opts.sortBy);
    const n = p.ast?.kind === 'select' && p.ast.columns.length === 1 ? p.ast.columns[0].name : undefined;
    if (n && !isAggregate(n)) {
      sortName = n;
      order = { column: n.text, desc: opts.sortDesc ?? true };
    }
  }
  const sortExpr = attrExpr(sortName.attr, o);
  const where = whereSql(scope, q);
  const dir = order.desc ? sql`DESC` : sql`ASC`;
  const offset = (opts.page - 1) * opts.limit;
  // The group's name (spans_index's display_name) comes with the page for the span card: chDB and
  // ClickHouse 25.4+ read it for the page's rows only (lazy materialization; no measurable cost on
  // 2M spans over 24 h), where a read by key afterwards took another query (~20 ms a page).
  const pageSql = (prewhere: SqlFragment) =>
    sql`SELECT toString(s.trace_id) AS trace_uuid, s.id AS id, s.display_name AS group_name ${FROM}${prewhere} WHERE ${where} ORDER BY ${sortExpr} ${dir}, s.id ASC LIMIT ${param.uint32(opts.limit)} OFFSET ${param.uint32(offset)}`;
  const count = sql`SELECT count() AS count ${FROM} WHERE ${where}`;
  // A filter on one rollup attribute: the total from the rollup, and the longest spans among those
  // at or above the rollup's floor (attrRollup.ts); without filters, the longest among those at or
  // above the group rollups' floor (rollup.ts); the rest reads every matching span.
  const filter = rollupFilter(query, q, 'filters', o, scope);
  const byDuration = isBuiltin(sortName.attr) && sortName.attr === '.duration' && order.desc;
  return {
    q,
    order,
    page: pageSql(sql``),
    count: (filter && rollupSpanCount(scope, q.where, filter)) ?? count,
    /** The `rank`-th longest duration's floor, when the rollup can tell it. */
    durationFloor: !byDuration
      ? null
      : filter
        ? rollupDurationFloor(scope, filter, offset + opts.limit)
        : rollupGroupsDurationFloor(q, scope, offset + opts.limit),
    /** The page, reading only spans at least `floor` long first. */
    pageFrom: (floor: bigint) => pageSql(sql` PREWHERE s.duration >= ${param.int64(floor)}`),
  };
}

export function attrKeysSql(scope: RangeScope, query: string) {
  const q = compileQuery(query, 'filters', { minutes: minutesOf(scope) });
  return {
    q,
    sql: sql`SELECT groupUniqArrayArray(1000)(${ROW_ATTR_KEYS_SQL}) AS keys ${FROM} WHERE ${whereSql(scope, q)}`,
  };
}

/**
 * Attribute keys whose every value among the matching rows is a number (values are stored as
 * text, numbers as decimal), at most 1000. Only keys without a column: the column attributes
 * (`service.name`, `db.statement`, `log.message`, ...) hold text.
 */
export function numericAttrKeysSql(scope: RangeScope, query: string) {
  const q = compileQuery(query, 'filters', { minutes: minutesOf(scope) });
  const text = sql`SELECT k AS key ${FROM} ARRAY JOIN s.attr_keys AS k, s.attr_values AS v WHERE ${whereSql(scope, q)} GROUP BY k HAVING countIf(isNull(toFloat64OrNull(v))) = 0 ORDER BY k ASC LIMIT 1000`;
  return { q, sql: text };
}

export const ATTR_VALUES_LIMIT = 1000;

/** Distinct values of one attribute with counts; filters on that same attribute are left out (§6.2). */
export function attrValuesSql(scope: RangeScope, query: string, attrKey: string, searchInput: string | undefined) {
  const q = compileQuery(query, 'filters', { minutes: minutesOf(scope) }, { skipFilterOn: attrKey });
  const e = attrExpr(attrKey, { minutes: minutesOf(scope) });
  const value = BUILTIN_FIELDS[attrKey]?.numeric || attrKey === '.time' ? sql`toString(${e})` : e;
  const conds = [whereSql(scope, q)];
  if (!isBuiltin(attrKey)) conds.push(hasAttrExpr(attrKey));
  if (searchInput) conds.push(sql`positionCaseInsensitiveUTF8(${value}, ${param.string(searchInput)}) > 0`);
  const text = sql`SELECT ${value} AS value, count() AS count ${FROM} WHERE ${join(conds, ' AND ')} GROUP BY value ORDER BY count DESC, value ASC LIMIT ${param.uint32(ATTR_VALUES_LIMIT + 1)}`;
  return { q, sql: text };
}
