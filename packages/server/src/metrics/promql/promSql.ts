import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { attrCol, datapointRows } from '../query/compileSeries';
import { PromQLError, type LabelMatcher } from './engine';
import type { PromColumn } from './promNames';

/**
 * The SQL of the PromQL source (promSource.ts): label matchers as conditions on a series'
 * attributes, the series of a selection, their minutes, their totals before a time, and the
 * minutes summed per group (the push-down of `sum by`). Every name and value from the query is a
 * bound parameter; regexes are fully anchored as PromQL's are (ClickHouse's `match` is RE2, as
 * Prometheus's regexes are).
 */

const HOUR_MS = 3_600_000;

/** A label matcher on the series' attributes (a missing label reads as '', as in PromQL). */
export function matcherCond(m: LabelMatcher): SqlFragment {
  const col = attrCol(m.name);
  switch (m.type) {
    case '=':
      return sql`${col} = ${param.string(m.value)}`;
    case '!=':
      return sql`${col} != ${param.string(m.value)}`;
    case '=~':
      return sql`match(${col}, ${param.string(anchored(m.value))})`;
    case '!~':
      return sql`NOT match(${col}, ${param.string(anchored(m.value))})`;
  }
}

export const anchored = (re: string): string => `^(?:${re})$`;

/**
 * A PromQL regex for names matched in Node (metric names, derived `le`): fully anchored; a leading
 * `(?i)` (RE2's flag, which JavaScript lacks) becomes the `i` flag. One JavaScript cannot compile is a
 * bad_data error, as Prometheus refuses a regex RE2 cannot compile.
 */
export function nodeRegex(re: string): RegExp {
  const insensitive = re.startsWith('(?i)');
  try {
    return new RegExp(anchored(insensitive ? re.slice(4) : re), insensitive ? 'iu' : 'u');
  } catch (err) {
    throw new PromQLError('bad_data', `error parsing regexp: ${(err as Error).message}`);
  }
}

export interface Selection {
  projectId: number;
  /** Stored metric names. */
  metrics: readonly string[];
  /** Label matchers (no `__name__`). */
  matchers: readonly LabelMatcher[];
  /** Minutes whose start is in [gte, lt). */
  gte: Date;
  lt: Date;
  watermark: Date | null;
}

function rangeConds(s: Selection, gte: Date, lt: Date): SqlFragment[] {
  return [
    sql`project_id = ${param.uint32(s.projectId)}`,
    sql`metric IN ${param.strings(s.metrics)}`,
    sql`time >= ${param.secondsUp(gte)}`,
    sql`time < ${param.secondsUp(lt)}`,
  ];
}

/**
 * The selection's series, one row each (`metric`, `attrs_hash`, `string_keys`, `string_values`,
 * plus `cols`), found in the hourly rollup (and the minutes past its watermark): a series' attributes
 * are read once per hour instead of once per minute.
 */
export function seriesOf(s: Selection, cols: SqlFragment[] = []): SqlFragment {
  const hour = new Date(Math.floor(s.gte.getTime() / HOUR_MS) * HOUR_MS);
  const rows = datapointRows('datapoint_hours', rangeConds(s, hour, s.lt), s.lt, s.watermark);
  const first = sql`SELECT metric, attrs_hash, string_keys, string_values FROM ${rows} LIMIT 1 BY metric, attrs_hash`;
  const where = s.matchers.length ? sql` WHERE ${join(s.matchers.map(matcherCond), ' AND ')}` : sql``;
  return sql`SELECT ${join([sql`metric, attrs_hash, string_keys, string_values`, ...cols], ', ')} FROM (${first})${where}`;
}

/**
 * A condition on minute rows: of the selection's series. With one metric (the range's conditions
 * name it) on `attrs_hash` alone: a tuple with the name compares a string for each row.
 */
function inSeries(s: Selection): SqlFragment {
  return s.metrics.length === 1
    ? sql`attrs_hash GLOBAL IN (SELECT attrs_hash FROM (${seriesOf(s)}))`
    : sql`(metric, attrs_hash) GLOBAL IN (SELECT metric, attrs_hash FROM (${seriesOf(s)}))`;
}

/** The selection's series with their labels, at most `limit`. */
export function seriesList(s: Selection, limit: number): SqlFragment {
  return sql`${seriesOf(s)} LIMIT ${param.uint32(limit)}`;
}

/** A minute's value of one series (or of a group's series, summed) from the rows of the minute. */
function minuteValue(column: PromColumn): SqlFragment {
  switch (column) {
    case 'sum':
      return sql`sum(sum)`;
    case 'count':
      return sql`toFloat64(sum(count))`;
    case 'gauge':
      // Rows of one minute fold into one with the last gauge (AggregatingMergeTree's anyLast).
      return sql`anyLast(gauge)`;
    case 'bucket':
      return sql`sumMap(histogram)`;
  }
}

/** Per minute `[unix seconds, value]` or `[unix seconds, representatives, counts]`, by time. */
function points(column: PromColumn): SqlFragment {
  // Counts as Float64: a UInt64 would come back as text.
  const pt =
    column === 'bucket'
      ? sql`(toUnixTimestamp(t), v.1, arrayMap(c -> toFloat64(c), v.2))`
      : sql`(toUnixTimestamp(t), v)`;
  return sql`arraySort(x -> x.1, groupArray(${pt})) AS pts`;
}

/** The minutes of each selected series: rows `metric, attrs_hash, pts`. */
export function seriesMinutes(s: Selection, column: PromColumn): SqlFragment {
  const conds = [...rangeConds(s, s.gte, s.lt), inSeries(s)];
  const inner = sql`SELECT metric, attrs_hash, time AS t, ${minuteValue(column)} AS v FROM datapoint_minutes WHERE ${join(conds, ' AND ')} GROUP BY metric, attrs_hash, t`;
  return sql`SELECT metric, attrs_hash, ${points(column)} FROM (${inner}) GROUP BY metric, attrs_hash`;
}

/**
 * Each series' total before the selection (the base of a raw counter): the hourly rollup before the
 * hour of `gte` (and the minutes past its watermark), then the minutes of that hour before `gte`.
 * Rows `metric, attrs_hash, v` (a bucket's: `v` as (representatives, counts)).
 */
export function seriesTotalsBefore(s: Selection, column: PromColumn): SqlFragment {
  const hour = new Date(Math.floor(s.gte.getTime() / HOUR_MS) * HOUR_MS);
  const series = inSeries(s);
  const early = new Date(0);
  const hours = datapointRows('datapoint_hours', [...rangeConds(s, early, hour), series], hour, s.watermark);
  const cols = sql`metric, attrs_hash, sum, count, histogram`;
  const rows = sql`SELECT ${cols} FROM ${hours} UNION ALL SELECT ${cols} FROM datapoint_minutes WHERE ${join([...rangeConds(s, hour, s.gte), series], ' AND ')}`;
  const v =
    column === 'bucket' ? sql`(h.1, arrayMap(c -> toFloat64(c), (sumMap(histogram) AS h).2))` : minuteValue(column);
  return sql`SELECT metric, attrs_hash, ${v} AS v FROM (${rows}) GROUP BY metric, attrs_hash`;
}

export interface Grouping {
  without: boolean;
  labels: readonly string[];
}

/**
 * The minutes of the selection summed per group and stored metric (push-down of `sum by` over
 * counters): rows `metric, gk, gv, pts` where `gk`/`gv` are the group's label names and values
 * (names sorted; a `by` label a series lacks is left out, as PromQL leaves an empty label out).
 */
export function groupMinutes(s: Selection, column: PromColumn, g: Grouping): SqlFragment {
  const names = param.strings([...g.labels]);
  const keys = g.without
    ? sql`arrayFilter(k -> NOT has(${names}, k), string_keys)`
    : sql`arrayFilter(k -> has(${names}, k), string_keys)`;
  const vals = g.without
    ? sql`arrayFilter((v, k) -> NOT has(${param.strings([...g.labels])}, k), string_values, string_keys)`
    : sql`arrayFilter((v, k) -> has(${param.strings([...g.labels])}, k), string_values, string_keys)`;
  // string_keys are stored sorted, so the filtered pairs are in one order for every series. The
  // minutes are joined with a number per group (`gh`, a hash of its metric and labels) and on
  // `attrs_hash` alone when one metric is read, and summed by that number: a join that carries the
  // label arrays, or keys or groups on the metric's name, copies or hashes them for each of
  // millions of minute rows (24 h of 9,000 series: 3.8 s against 0.6 s, docs/benchmarks.md). The
  // names and labels join the groups' sums at the end.
  const series = seriesOf(s, [sql`${keys} AS gk`, sql`${vals} AS gv`, sql`cityHash64(metric, gk, gv) AS gh`]);
  const key = s.metrics.length === 1 ? sql`attrs_hash` : sql`metric, attrs_hash`;
  const inner = sql`SELECT gh, time AS t, ${minuteValue(column)} AS v FROM datapoint_minutes AS d GLOBAL INNER JOIN (SELECT ${key}, gh FROM (${series})) AS s USING (${key}) WHERE ${join(
    rangeConds(s, s.gte, s.lt),
    ' AND ',
  )} GROUP BY gh, t`;
  const sums = sql`SELECT gh, ${points(column)} FROM (${inner}) GROUP BY gh`;
  const labels = sql`SELECT gh, any(metric) AS metric, any(gk) AS gk, any(gv) AS gv FROM (${series}) GROUP BY gh`;
  return sql`SELECT metric, gk, gv, pts FROM (${sums}) AS p GLOBAL INNER JOIN (${labels}) AS l USING (gh)`;
}

/** Distinct label names of the selection's series. */
export function labelNames(s: Selection): SqlFragment {
  return sql`SELECT DISTINCT arrayJoin(string_keys) AS name FROM (${seriesOf(s)}) ORDER BY name`;
}

/** Distinct values of one label among the selection's series (series without it left out). */
export function labelValues(s: Selection, name: string, limit: number): SqlFragment {
  return sql`SELECT DISTINCT ${attrCol(name)} AS value FROM (${seriesOf(s)}) WHERE has(string_keys, ${param.string(name)}) ORDER BY value LIMIT ${param.uint32(limit)}`;
}

/** The stored metrics with rows in the selection's range (for `__name__` values without a selector). */
export function metricsWithData(s: Selection): SqlFragment {
  return sql`SELECT DISTINCT metric FROM (${seriesOf(s)})`;
}

/** The distinct representative values of histogram maps in the selection (for `le` values). */
export function bucketBounds(s: Selection): SqlFragment {
  const conds = [...rangeConds(s, s.gte, s.lt), inSeries(s)];
  return sql`SELECT metric, arraySort(groupUniqArrayArray(histogram.1)) AS les FROM ${ident('datapoint_minutes')} WHERE ${join(conds, ' AND ')} GROUP BY metric`;
}

/** The catalogue of a project: the latest instrument, unit and description of each metric. */
export function catalog(projectId: number): SqlFragment {
  return sql`SELECT name, argMax(instrument, updated_at) AS instrument, argMax(unit, (updated_at, unit != '')) AS unit,
  argMax(description, (updated_at, description != '')) AS description
  FROM metrics_catalog WHERE project_id = ${param.uint32(projectId)} GROUP BY name ORDER BY name`;
}
