import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { SPAN_GROUP_QUARTERS_TABLE } from '../../storage/telemetry';
import { QUARTER_HOUR } from './attrRollup';
import { QUANTILE_LEVELS, type CompiledColumn, type CompiledQuery } from './compile';
import { IS_SPAN_SQL } from './eventTypes';
import { QUARTER_ROWS_ATTR, rollupExpr } from './rollup';
import { groupConds, systemClause, type RangeScope } from './scope';
import { coveredHoursSql, latestRunSql } from './windowRows';

/**
 * A filter-free time series of quarter-hour buckets (24 h) from the groups' quarter hours with
 * their percentiles worked out (`span_group_quarters`, telemetry migration 21, rolled up by
 * windowRollupJob.ts createGroupQuartersJob): a bucket of a group is one row, so no t-digest state
 * is read or merged (the ~10,000 states of the top 100 groups over 24 h at 100M spans a day, 22 MB,
 * were most of the 24 h call). A quarter's latest run is read in the hours whose latest rows add
 * up to the hour rollup's count (per type and system, windowRows.ts); elsewhere (a quarter not
 * rolled up yet, or reached by spans since) the attribute rollup's rows of QUARTER_ROWS_ATTR are
 * folded the same way in the query. Counts, errors and extremes are the rollups' (the spans');
 * percentiles are those of the merged states, as from the attribute rows.
 */

/** The quantiles each row keeps, in order: every one the query language has (compile.ts QUANTILE_LEVELS). */
const QUARTER_FUNCS = ['p50', 'p75', 'p90', 'p95', 'p99'];
/** Their levels, as the job writes them. */
export const QUARTER_LEVELS = [0.5, 0.75, 0.9, 0.95, 0.99];

const HOUR = 3_600_000;
const ROW_COLUMNS = sql`project_id, type, system, group_id, time, count, error_count, min_duration, max_duration, q, display_name`;

/**
 * The select list and FROM of the time series over those rows (as rollupSelect), or null: a
 * filter, an aggregate filter, a range that is not whole quarter hours (or under two of them), or a
 * column they do not keep.
 */
export function groupQuartersSelect(
  q: CompiledQuery,
  cols: readonly (CompiledColumn & { key: string })[],
  scope: RangeScope,
  minutes: number,
): { select: SqlFragment[]; from: SqlFragment } | null {
  const a = scope.gte.getTime();
  const b = scope.lt.getTime();
  if (q.where.length || q.having.length || a % QUARTER_HOUR || b % QUARTER_HOUR || b - a < 2 * QUARTER_HOUR)
    return null;
  const select: SqlFragment[] = [];
  for (const c of cols) {
    let e: SqlFragment | null;
    const level = c.name_.func ? QUARTER_FUNCS.indexOf(c.name_.func) : -1;
    if (c.hidden)
      e = c.name === '.system' ? sql`any(s.system)` : c.name === 'display.name' ? sql`any(s.display_name)` : null;
    else if (level >= 0)
      e =
        c.name_.attr === '.duration'
          ? sql`if(countIf(${IS_SPAN_SQL}) = 0, nan, arrayElement(anyIf(s.q, ${IS_SPAN_SQL}), ${param.uint8(level + 1)}))`
          : null;
    else e = rollupExpr(c.name_, minutes, null, 0);
    if (!e) return null;
    select.push(sql`${e} AS ${ident(c.key)}`);
  }
  const scoped = (from: number, to: number, groups: boolean) => {
    const conds = [
      sql`s.project_id = ${param.uint32(scope.projectId)}`,
      sql`s.time >= ${param.time(new Date(from))} AND s.time < ${param.time(new Date(to))}`,
    ];
    const sys = systemClause(scope.systems);
    if (sys) conds.push(sys);
    if (groups) conds.push(...groupConds(scope));
    return join(conds, ' AND ');
  };
  const h0 = Math.floor(a / HOUR) * HOUR;
  const h1 = Math.ceil(b / HOUR) * HOUR;
  const runs = sql`s.time >= ${param.time(new Date(h0))} AND s.time < ${param.time(new Date(h1))}`;
  const covered = coveredHoursSql(SPAN_GROUP_QUARTERS_TABLE, 'count', scoped(h0, h1, false), runs);
  const rolled = sql`toStartOfHour(s.time) GLOBAL IN (${covered})`;
  const levels = join(
    QUARTER_FUNCS.map((f) => QUANTILE_LEVELS[f]!),
    ', ',
  );
  const rows = sql`SELECT ${ROW_COLUMNS} FROM ${ident(SPAN_GROUP_QUARTERS_TABLE)} AS s WHERE ${scoped(a, b, true)} AND ${rolled} AND ${latestRunSql(SPAN_GROUP_QUARTERS_TABLE, runs)}`;
  // The attribute rows of the other hours, one row per group and quarter as above.
  const folded = sql`SELECT project_id, type, system, group_id, t AS time, sum(c) AS count, sum(e) AS error_count,
      min(mi) AS min_duration, max(ma) AS max_duration, quantilesTDigestMerge(${levels})(d) AS q, any(dn) AS display_name
    FROM (SELECT s.project_id AS project_id, s.type AS type, s.system AS system, s.group_id AS group_id, s.time AS t,
        s.count AS c, s.error_count AS e, s.min_duration AS mi, s.max_duration AS ma, s.duration AS d, s.display_name AS dn
      FROM span_attr_groups_15m AS s PREWHERE NOT (${rolled}) WHERE ${scoped(a, b, true)} AND s.attr_key = ${param.string(QUARTER_ROWS_ATTR)})
    GROUP BY project_id, type, system, group_id, t`;
  return { select, from: sql`(${rows} UNION ALL ${folded}) AS s` };
}
