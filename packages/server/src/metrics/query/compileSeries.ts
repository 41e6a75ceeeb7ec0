import type { MetricFilter, Instrument } from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { classicConditions, classicHistogramRows } from './classicHistogram';
import type { DatapointTable, TimeGrid } from './timeRange';

/**
 * One timeseries expression -> one SQL query (reference query §3.6). Rows come back one per
 * group: the group's attribute values and two parallel arrays of bucket times and values. Every
 * user-supplied text (metric, attribute names and values, search) is a bound parameter.
 *
 * Gauge and additive metrics are first reduced per series and bucket (the last value, or min/max)
 * and only then aggregated across series, so a series reported twice in a bucket is not counted
 * twice. Histogram quantiles are read from the summed bucket map: the first representative value
 * whose cumulative count reaches q of the total, clamped into the [min, max] of the values (as
 * Prometheus's and the Collector's interpolation stay within a bucket's observed range).
 */
export type Agg = 'sum' | 'avg' | 'min' | 'max' | 'count' | 'uniq' | 'p50' | 'p75' | 'p90' | 'p95' | 'p99';

export const QUANTILES: Record<string, number> = { p50: 0.5, p75: 0.75, p90: 0.9, p95: 0.95, p99: 0.99 };

export interface WhereClause {
  filters: MetricFilter[];
  conjunctions: ('and' | 'or')[];
}

export interface SeriesQuery {
  metric: string;
  instrument: Exclude<Instrument, 'deleted'>;
  agg: Agg;
  /** Brace filters of this occurrence (ANDed). */
  filters: MetricFilter[];
  /** Where parts that apply to this occurrence (each one ANDed with the rest). */
  where: WhereClause[];
  /** `all`: one group per series; else group by these attributes in this order. */
  grouping: 'all' | string[];
  /** uniq over these attributes instead of over series. */
  uniqAttrs: string[];
  /** Keep only series with an attribute value containing this text (table search). */
  search: string;
  /** A classic Prometheus histogram: `metric` is read from its `_bucket`, `_sum` and `_count` series (classicHistogram.ts). */
  fromBuckets?: true;
}

export function attrCol(key: string): SqlFragment {
  return sql`string_values[indexOf(string_keys, ${param.string(key)})]`;
}

export function compileFilter(f: MetricFilter): SqlFragment {
  const col = attrCol(f.attr);
  const v = f.values[0] ?? '';
  switch (f.op) {
    case '=':
      return sql`${col} = ${param.string(v)}`;
    case '!=':
      return sql`${col} != ${param.string(v)}`;
    case '~':
      return sql`match(${col}, ${param.string(v)})`;
    case '!~':
      return sql`NOT match(${col}, ${param.string(v)})`;
    case 'like':
      return sql`${col} LIKE ${param.string(v)}`;
    case 'not like':
      return sql`${col} NOT LIKE ${param.string(v)}`;
    case 'in':
      return sql`has(${param.strings(f.values)}, ${col})`;
    case 'not in':
      return sql`NOT has(${param.strings(f.values)}, ${col})`;
    case 'exists':
      return sql`has(string_keys, ${param.string(f.attr)})`;
    case 'not exists':
      return sql`NOT has(string_keys, ${param.string(f.attr)})`;
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const n = Number(v);
      if (!Number.isFinite(n)) throw new Error(`"${f.attr} ${f.op} ${v}" needs a number`);
      const num = sql`toFloat64OrNull(${col})`;
      const p = param.float64(n);
      if (f.op === '<') return sql`${num} < ${p}`;
      if (f.op === '<=') return sql`${num} <= ${p}`;
      if (f.op === '>') return sql`${num} > ${p}`;
      return sql`${num} >= ${p}`;
    }
  }
}

/** `a and b or c` with AND binding tighter than OR. */
export function compileWhere(w: WhereClause): SqlFragment {
  const groups: SqlFragment[][] = [[compileFilter(w.filters[0])]];
  w.conjunctions.forEach((c, i) => {
    const f = compileFilter(w.filters[i + 1]);
    if (c === 'and') groups[groups.length - 1].push(f);
    else groups.push([f]);
  });
  const ors = groups.map((g) => (g.length === 1 ? g[0] : sql`(${join(g, ' AND ')})`));
  return ors.length === 1 ? ors[0] : sql`(${join(ors, ' OR ')})`;
}

/** Rows of one metric in the grid's range. */
function rangeConditions(projectId: number, metric: string, gte: Date, lt: Date): SqlFragment[] {
  return [
    sql`project_id = ${param.uint32(projectId)}`,
    sql`metric = ${param.string(metric)}`,
    sql`time >= ${param.secondsUp(gte)}`,
    sql`time < ${param.secondsUp(lt)}`,
  ];
}

/** Brace filters, where parts and the table search: conditions on a series' attributes. */
function attrConditions(q: SeriesQuery): SqlFragment[] {
  const conds = [...q.filters.map(compileFilter), ...q.where.map(compileWhere)];
  if (q.search)
    conds.push(sql`arrayExists(x -> positionCaseInsensitiveUTF8(x, ${param.string(q.search)}) != 0, string_values)`);
  return conds;
}

const HOUR_MS = 3_600_000;

const ROW_COLUMNS = sql`project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values`;

/**
 * `FROM` the rows of `table` that pass `conds` (a table and its WHERE, or a subquery). On the
 * embedded store a rollup holds the rows before its watermark only (TelemetryStore.rollupWatermark,
 * docs/decisions/datapoint-rollups.md): when the watermark falls before `lt`, the minutes' rows
 * from the watermark on are read beside the rollup's before it. Both go through the same bucket
 * and aggregates (a minute is in one 15-minute and one hourly bucket), so nothing is rolled again.
 */
export function datapointRows(
  table: DatapointTable,
  conds: SqlFragment[],
  lt: Date,
  watermark: Date | null,
): SqlFragment {
  const where = join(conds, ' AND ');
  if (table === 'datapoint_minutes' || watermark === null || watermark.getTime() >= lt.getTime())
    return sql`${ident(table)} WHERE ${where}`;
  const w = param.secondsUp(watermark);
  return sql`(SELECT ${ROW_COLUMNS} FROM ${ident(table)} WHERE ${where} AND time < ${w} UNION ALL SELECT ${ROW_COLUMNS} FROM datapoint_minutes WHERE ${where} AND time >= ${w})`;
}

/**
 * The series of the range that pass the attribute conditions, one row each, with the attribute
 * values the query groups by (`g<i>`), counts distinct (`u<i>`), or all of them (`sk`, `sv`), for
 * queries over the minutes (on the rollups, whose rows are few per series, these are read inline).
 * Read from the hourly rollup (every series of a minute is in its hour), so the attribute arrays
 * are read and filtered for a series once per hour instead of once per datapoint row; the
 * datapoints are then joined on `attrs_hash` and read as numbers only. The join is GLOBAL: on a
 * cluster the series are found once and sent to every shard (datapoints are spread at random).
 */
function seriesSubquery(
  projectId: number,
  q: SeriesQuery,
  grid: TimeGrid,
  conds: SqlFragment[],
  cols: SqlFragment[],
  watermark: Date | null,
): SqlFragment {
  const hour = new Date(Math.floor(grid.gte.getTime() / HOUR_MS) * HOUR_MS);
  const hours = datapointRows(
    'datapoint_hours',
    rangeConditions(projectId, q.metric, hour, grid.lt),
    grid.lt,
    watermark,
  );
  const firstPerSeries = sql`SELECT attrs_hash, string_keys, string_values FROM ${hours} LIMIT 1 BY attrs_hash`;
  const where = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : sql``;
  return sql`SELECT ${join([sql`attrs_hash`, ...cols], ', ')} FROM (${firstPerSeries})${where}`;
}

/** The value of one group in one bucket, over the rows of the middle level. */
function valueExpr(q: SeriesQuery): SqlFragment {
  if (q.agg === 'uniq') {
    if (q.uniqAttrs.length === 0) return sql`toFloat64(uniqCombined64(attrs_hash))`;
    return sql`toFloat64(uniqCombined64(${join(
      q.uniqAttrs.map((_, i) => sql`${ident(`u${i}`)}`),
      ', ',
    )}))`;
  }
  if (q.instrument === 'gauge' || q.instrument === 'additive') {
    // Over per-series values `v` from the inner level.
    if (q.agg === 'sum') return sql`sum(v)`;
    if (q.agg === 'min') return sql`min(v)`;
    if (q.agg === 'max') return sql`max(v)`;
    return sql`avg(v)`;
  }
  const q0 = QUANTILES[q.agg];
  if (q0 !== undefined) {
    // The bucket's representative, clamped into the values' [min, max] (rows that hold values only).
    const estimate = sql`arrayElement(h.1, arrayFirstIndex(x -> x >= ${param.float64(q0)} * arraySum(h.2), arrayCumSum(h.2)))`;
    return sql`if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(${estimate}, minIf(min, count > 0)), maxIf(max, count > 0)))`;
  }
  switch (q.agg) {
    case 'avg':
      return sql`if(sum(count) = 0, nan, sum(sum) / sum(count))`;
    // Rows that hold no value (a histogram's empty export) carry no min or max.
    case 'min':
      return sql`minIf(min, count > 0)`;
    case 'max':
      return sql`maxIf(max, count > 0)`;
    case 'count':
      return sql`toFloat64(sum(count))`;
    default:
      return sql`sum(sum)`;
  }
}

/**
 * A sum over the rows (a counter's total, a histogram's count): read up to the finished minutes
 * only (TimeGrid.complete), since the current one is still being exported into.
 */
export function sumsRows(q: SeriesQuery): boolean {
  return q.instrument !== 'gauge' && q.instrument !== 'additive' && (q.agg === 'sum' || q.agg === 'count');
}

/** `watermark`: the store's rollup watermark (TelemetryStore.rollupWatermark; null: the rollups hold every row). */
export function compileSeriesQuery(
  projectId: number,
  q: SeriesQuery,
  grid: TimeGrid,
  watermark: Date | null = null,
): SqlFragment {
  const table = ident(grid.table);
  const bucket = sql`toStartOfInterval(time, toIntervalMinute(${param.uint32(grid.bucketMin)}))`;
  const all = q.grouping === 'all';
  const names = all ? [] : (q.grouping as string[]);
  const g = names.map((_, i) => sql`${ident(`g${i}`)}`);
  const list = (xs: SqlFragment[]) => (xs.length ? sql`${join(xs, ', ')}, ` : sql``);
  const gCols = list(g);
  const seriesCols = [
    ...(all ? [sql`string_keys AS sk`, sql`string_values AS sv`] : names.map((n, i) => sql`${attrCol(n)} AS ${g[i]}`)),
    ...(q.agg === 'uniq' ? q.uniqAttrs.map((a, i) => sql`${attrCol(a)} AS ${ident(`u${i}`)}`) : []),
  ];
  const lt = sumsRows(q) ? grid.complete : grid.lt;
  const range = rangeConditions(projectId, q.metric, grid.gte, lt);
  const conds = attrConditions(q);
  let from: SqlFragment;
  if (q.fromBuckets) {
    // The attribute conditions hold for the joined series (without `le`), not for each bucket's.
    const rows = datapointRows(grid.table, classicConditions(projectId, q.metric, grid.gte, lt), lt, watermark);
    const where = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : sql``;
    from = sql`(SELECT ${join([sql`*`, ...seriesCols], ', ')} FROM ${classicHistogramRows(rows, projectId, q.metric)}${where})`;
  } else if (seriesCols.length === 0 && conds.length === 0) {
    // Neither filters nor groups by attributes: the datapoints alone.
    from = datapointRows(grid.table, range, lt, watermark);
  } else if (grid.table === 'datapoint_minutes') {
    // Up to 60 rows per series and hour: find the series once (seriesSubquery), join the numbers.
    from = sql`${table} GLOBAL INNER JOIN (${seriesSubquery(projectId, q, grid, conds, seriesCols, watermark)}) AS s USING attrs_hash WHERE ${join(range, ' AND ')}`;
  } else {
    // The rollups have few rows per series: reading their attributes inline is cheaper than a join.
    from = sql`(SELECT ${join([sql`*`, ...seriesCols], ', ')} FROM ${datapointRows(grid.table, [...range, ...conds], lt, watermark)})`;
  }

  // Group keys per level; `group by all` carries the series' attribute arrays along.
  let inner: SqlFragment;
  if ((q.instrument === 'gauge' || q.instrument === 'additive') && q.agg !== 'uniq') {
    // Per series and bucket first: the last value (argMax by time), or the bucket's min/max.
    const perSeries = q.agg === 'min' ? sql`min(min)` : q.agg === 'max' ? sql`max(max)` : sql`argMax(gauge, time)`;
    const seriesKeys = all ? sql`any(sk) AS k0, any(sv) AS v0, ` : gCols;
    const series = sql`SELECT attrs_hash, ${seriesKeys}${bucket} AS t, ${perSeries} AS v FROM ${from} GROUP BY attrs_hash, ${gCols}t`;
    const keys = all ? sql`attrs_hash, any(k0) AS k1, any(v0) AS v1, ` : gCols;
    const groupBy = all ? sql`attrs_hash, ` : gCols;
    inner = sql`SELECT ${keys}t, ${valueExpr(q)} AS value FROM (${series}) GROUP BY ${groupBy}t ORDER BY t`;
  } else {
    const keys = all ? sql`attrs_hash, any(sk) AS k1, any(sv) AS v1, ` : gCols;
    const groupBy = all ? sql`attrs_hash, ` : gCols;
    inner = sql`SELECT ${keys}${bucket} AS t, ${valueExpr(q)} AS value FROM ${from} GROUP BY ${groupBy}t ORDER BY t`;
  }
  const outerKeys = all ? sql`any(k1) AS attr_keys, any(v1) AS attr_values, ` : gCols;
  const outerGroup = all ? sql` GROUP BY attrs_hash` : g.length ? sql` GROUP BY ${join(g, ', ')}` : sql``;
  return sql`SELECT ${outerKeys}groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (${inner})${outerGroup} LIMIT 10000`;
}
