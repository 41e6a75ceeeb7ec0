import { ident, param, sql, type SqlFragment } from '../../storage/sql';

/**
 * The names of span groups that a metric from spans groups by (`.group_id`): the `display.name`
 * annotation its datapoints keep (metricsFromSpans), so legends and tables show `GET /cart`
 * instead of `17449074093152405014`. Read from the hourly rollup (a series' annotation is on each
 * of its hours), and on the embedded store from the minutes past the rollup watermark.
 */
export const GROUP_ID = '.group_id';

/** `.group_id` value -> the group's name. */
export type GroupNames = ReadonlyMap<string, string>;
const HOUR_MS = 3_600_000;

export function compileGroupNames(
  projectId: number,
  metrics: readonly string[],
  ids: readonly string[],
  range: { gte: Date; lt: Date },
  watermark: Date | null,
): SqlFragment {
  const gid = sql`string_values[indexOf(string_keys, ${param.string(GROUP_ID)})]`;
  const rows = (table: 'datapoint_hours' | 'datapoint_minutes', gte: Date, lt: Date) =>
    sql`SELECT ${gid} AS gid, annotations FROM ${ident(table)} WHERE project_id = ${param.uint32(projectId)} AND has(${param.strings(metrics)}, metric) AND time >= ${param.secondsUp(gte)} AND time < ${param.secondsUp(lt)} AND annotations != '' AND has(${param.strings(ids)}, gid)`;
  const hour = new Date(Math.floor(range.gte.getTime() / HOUR_MS) * HOUR_MS);
  const w = watermark && watermark < range.lt ? watermark : range.lt;
  const parts = [rows('datapoint_hours', hour, w)];
  if (w < range.lt) parts.push(rows('datapoint_minutes', w > range.gte ? w : range.gte, range.lt));
  const from = parts.length === 1 ? parts[0] : sql`${parts[0]} UNION ALL ${parts[1]}`;
  return sql`SELECT gid, JSONExtractString(anyLast(annotations), 'display.name') AS name FROM (${from}) GROUP BY gid`;
}
