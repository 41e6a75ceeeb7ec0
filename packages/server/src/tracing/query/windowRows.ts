import { ident, sql, type SqlFragment } from '../../storage/sql';

/**
 * Reading the rows a window rollup job writes (windowRollupJob.ts: `span_durations_5m`,
 * `span_group_quarters`), each window under the runs that wrote it, over `AS s`.
 */

/** Each window's latest run among the rows of `table` in `where`. */
export const latestRunSql = (table: string, where: SqlFragment) =>
  sql`(s.time, s.run) GLOBAL IN (SELECT s.time, max(s.run) FROM ${ident(table)} AS s WHERE ${where} GROUP BY s.time)`;

/**
 * The hours (`h`, DateTime) of `hours` (conditions on `s` over whole hours) whose windows' latest
 * rows in `table` add up (`held`) to the hour rollup's count (`span_groups_1h`, fed by the same
 * inserts as the spans), per type and system. A window's rows hold its spans' count when it was
 * rolled up, and spans only come, so no window holds more than its spans now: the sums are equal
 * only when every window of the hour is current. `runs`: the time range of the latest-run lookup.
 */
export function coveredHoursSql(table: string, held: string, hours: SqlFragment, runs: SqlFragment): SqlFragment {
  return sql`SELECT h FROM (SELECT h, sumIf(c, src = 0) = sumIf(c, src = 1) AS held FROM (SELECT s.type AS type, s.system AS system, toStartOfHour(s.time) AS h, sum(s.count) AS c, 0 AS src FROM span_groups_1h AS s WHERE ${hours} GROUP BY type, system, h UNION ALL SELECT s.type AS type, s.system AS system, toStartOfHour(s.time) AS h, sum(s.${ident(held)}) AS c, 1 AS src FROM ${ident(table)} AS s WHERE ${hours} AND ${latestRunSql(table, runs)} GROUP BY type, system, h) GROUP BY type, system, h) GROUP BY h HAVING min(held) = 1`;
}
