import { join, param, sql, type SqlFragment } from '../../storage/sql';
import { compileQuery, type CompiledQuery, type CompileMode } from './compile';
import type { CompileOptions } from './compileExpr';
import { groupConds, systemClause, type RangeScope } from './scope';

/**
 * The attribute rollup `span_attr_groups_15m` (telemetry migration 10): the group rows of
 * `span_groups_1m` per quarter hour and per value of service, host and environment, keyed by
 * attribute and value first. A query whose filters all test one of them reads that value's rows
 * over the range's whole quarter hours, and the spans of the minutes before the first and after
 * the last (the edges), instead of every span of the range.
 */

export const QUARTER_HOUR = 900_000;

/**
 * Attributes whose values have rollup rows (span_attr_groups_15m): every span has one row per
 * attribute (its value, or '' without it), so any filter on one of them alone selects the same
 * spans from the rollup as from spans_index.
 */
export const ROLLUP_ATTRS = ['service.name', 'host.name', 'deployment.environment'] as const;

/** The where parts of a query, over the attribute rollup's `attr_value`. */
export interface RollupFilter {
  attr: string;
  where: SqlFragment[];
}

/**
 * When every span-level filter of the query tests the same attribute of ROLLUP_ATTRS (no
 * function of it) and the systems are all (or all spans), its where parts compiled over
 * `s.attr_value`; else null. A system or a type narrows the spans read by itself (the first key
 * of spans_index, and its skip index on type), and merging the rollup's t-digest states then
 * costs more than reading those spans (`http:all` of the bench: 24 -> 81 ms with the rollup).
 * `anySystems`: for a read of the rollup's counts alone (no state merged), which is cheap with
 * any systems: the rollup's rows carry type and system.
 */
export function rollupFilter(
  query: string,
  q: CompiledQuery,
  mode: CompileMode,
  o: CompileOptions,
  scope: RangeScope,
  anySystems = false,
): RollupFilter | null {
  const sys = scope.systems;
  if (!anySystems && systemClause(sys) !== null && !sys.every((s) => s === 'spans:all')) return null;
  const attrs = new Set(q.whereNames.map((n) => (n.func === null ? n.attr : '')));
  const [attr] = attrs;
  if (attrs.size !== 1 || !(ROLLUP_ATTRS as readonly string[]).includes(attr)) return null;
  const again = compileQuery(query, mode, { ...o, attrColumns: { [attr]: sql`s.attr_value` } });
  return { attr, where: again.where };
}

const quarters = (scope: RangeScope) => {
  const gte = scope.gte.getTime();
  const lt = scope.lt.getTime();
  const q0 = Math.ceil(gte / QUARTER_HOUR) * QUARTER_HOUR;
  const q1 = Math.floor(lt / QUARTER_HOUR) * QUARTER_HOUR;
  return { gte, lt, q0, q1 };
};

const between = (a: number, b: number) =>
  sql`(s.time >= ${param.time(new Date(a))} AND s.time < ${param.time(new Date(b))})`;

/** The minutes before the first and after the last whole quarter hour, or null. */
function edgeRange(scope: RangeScope): SqlFragment | null {
  const { gte, lt, q0, q1 } = quarters(scope);
  const edges: SqlFragment[] = [];
  if (gte < q0) edges.push(between(gte, q0));
  if (q1 < lt) edges.push(between(q1, lt));
  return edges.length ? sql`(${join(edges, ' OR ')})` : null;
}

/** Project, time range, systems and group, over either table. */
function scopeConds(scope: RangeScope, range: SqlFragment): SqlFragment[] {
  const conds = [sql`s.project_id = ${param.uint32(scope.projectId)}`, range];
  const sys = systemClause(scope.systems);
  if (sys) conds.push(sys);
  conds.push(...groupConds(scope));
  return conds;
}

/** The attribute rollup's rows of the whole quarter hours [q0, q1) that pass the filter. */
const attrRollupWhere = (scope: RangeScope, filter: RollupFilter, q0: number, q1: number) =>
  join(
    [...scopeConds(scope, between(q0, q1)), sql`s.attr_key = ${param.string(filter.attr)}`, ...filter.where],
    ' AND ',
  );

/**
 * The attribute rollup's rows of the range's whole quarter hours that pass the filter, and the
 * spans of the edge minutes aggregated to the same columns (`where`: the filters over
 * spans_index); null for a range without a whole quarter hour.
 */
export function attrRollupFrom(scope: RangeScope, where: SqlFragment[], filter: RollupFilter): SqlFragment | null {
  const { q0, q1 } = quarters(scope);
  if (q1 <= q0) return null;
  const rollup = sql`SELECT project_id, type, system, group_id, time, count, error_count, min_duration, max_duration, duration, display_name FROM span_attr_groups_15m AS s WHERE ${attrRollupWhere(scope, filter, q0, q1)}`;
  const edges = edgeRange(scope);
  if (!edges) return sql`(${rollup}) AS s`;
  // The edges from the spans, as the rollup's columns (positional in UNION ALL; other names so no
  // alias shadows a column of spans_index in the conditions).
  const raw = sql`SELECT s.project_id AS e_project_id, s.type AS e_type, s.system AS e_system, s.group_id AS e_group_id, toDateTime(toStartOfMinute(s.time), 'UTC') AS e_time, sum(s.count) AS e_count, sumIf(s.count, s.status_code = 'error') AS e_error_count, min(s.duration) AS e_min_duration, max(s.duration) AS e_max_duration, quantilesTDigestState(0.5)(toFloat64(s.duration)) AS e_duration, any(s.display_name) AS e_display_name FROM spans_index AS s WHERE ${join(
    [...scopeConds(scope, edges), ...where],
    ' AND ',
  )} GROUP BY e_project_id, e_type, e_system, e_group_id, e_time`;
  return sql`(${rollup} UNION ALL ${raw}) AS s`;
}

/**
 * A span list's total from the attribute rollup: ingest writes `count` 1 on every row
 * (spanRowEncoding.ts), so the sum of counts is the number of rows.
 */
export function rollupSpanCount(scope: RangeScope, where: SqlFragment[], filter: RollupFilter): SqlFragment | null {
  const { q0, q1 } = quarters(scope);
  if (q1 <= q0) return null;
  const parts = [
    sql`SELECT sum(s.count) AS c FROM span_attr_groups_15m AS s WHERE ${attrRollupWhere(scope, filter, q0, q1)}`,
  ];
  const edges = edgeRange(scope);
  if (edges)
    parts.push(
      sql`SELECT toFloat64(count()) AS c FROM spans_index AS s WHERE ${join([...scopeConds(scope, edges), ...where], ' AND ')}`,
    );
  return sql`SELECT sum(c) AS count FROM (${join(parts, ' UNION ALL ')})`;
}

/**
 * The `rank`-th largest of the rollup rows' longest durations (no row when there are fewer
 * rows). Each row holds other spans than the others and its longest is one of them, so at least
 * `rank` matching spans last that long or longer: the first `rank` spans by duration are among
 * the spans at or above it, which a span list can read alone (PREWHERE on the duration).
 */
export function rollupDurationFloor(scope: RangeScope, filter: RollupFilter, rank: number): SqlFragment | null {
  const { q0, q1 } = quarters(scope);
  if (q1 <= q0) return null;
  return sql`SELECT s.max_duration AS floor FROM span_attr_groups_15m AS s WHERE ${attrRollupWhere(scope, filter, q0, q1)} ORDER BY floor DESC LIMIT 1 OFFSET ${param.uint32(rank - 1)}`;
}
