import { join, param, sql, type SqlFragment } from '../../storage/sql';

/**
 * A classic Prometheus histogram read as one Lantern histogram (issue 41;
 * docs/decisions/classic-histograms.md). Remote write stores its series as counters under their
 * own names: `<family>_bucket` per `le`, `<family>_sum`, `<family>_count` (so per-`le` rates and
 * PromQL's `histogram_quantile` work on them as sent). The metric `<family>` is those series
 * joined at read time, per row time (a minute, or a rollup's 15 minutes or hour) and series
 * without `le`:
 *
 * - the `_bucket` deltas are summed per `le` (every row of the time, however ingest split them),
 *   sorted by bound and differenced into per-bucket counts (a difference below 0, possible only
 *   while a counter restarts, counts 0);
 * - each non-empty bucket is stored as ingest/histogram.ts stores an OTel bucket: one representative
 *   value, the midpoint of `(previous le, le]`; the first bucket starts at 0 (at its bound when that
 *   is <= 0), and `+Inf` is represented by the highest finite bound, where Prometheus's
 *   `histogram_quantile` puts it too. So a percentile lands in the bucket Prometheus's does;
 * - `min` and `max` are the lower bound of the lowest non-empty bucket and the upper bound of the
 *   highest finite one (the range the observations are known to lie in), `sum` the `_sum` delta,
 *   `count` the `_count` delta (the buckets' total without a `_count`).
 *
 * The rows come out in the datapoint tables' columns (ROW_COLUMNS), so every aggregate, grouping
 * and the heatmap read them as they read a stored histogram.
 */
export const CLASSIC_SUFFIXES = { bucket: '_bucket', sum: '_sum', count: '_count' } as const;

/** The name of a classic histogram whose `_bucket` series is `name`; null when `name` is not one. */
export function familyOfBucket(name: string): string | null {
  return name.endsWith(CLASSIC_SUFFIXES.bucket) && name.length > CLASSIC_SUFFIXES.bucket.length
    ? name.slice(0, -CLASSIC_SUFFIXES.bucket.length)
    : null;
}

export const LE = 'le';

/**
 * What selects a family's rows (its `_bucket`, `_sum` and `_count` series) of one project in
 * [gte, lt): for `datapointRows`, with any conditions on the series' attributes (they hold for a
 * bucket series exactly when they hold for its series without `le`).
 */
export function classicConditions(projectId: number, family: string, gte: Date, lt: Date): SqlFragment[] {
  const names = Object.values(CLASSIC_SUFFIXES).map((suffix) => family + suffix);
  return [
    sql`project_id = ${param.uint32(projectId)}`,
    sql`has(${param.strings(names)}, metric)`,
    sql`time >= ${param.secondsUp(gte)}`,
    sql`time < ${param.secondsUp(lt)}`,
  ];
}

/** `rows` (a `FROM` of the family's rows: classicConditions) as datapoint rows of a histogram named `family`. */
export function classicHistogramRows(rows: SqlFragment, projectId: number, family: string): SqlFragment {
  const bucket = param.string(family + CLASSIC_SUFFIXES.bucket);
  const sumName = param.string(family + CLASSIC_SUFFIXES.sum);
  const countName = param.string(family + CLASSIC_SUFFIXES.count);
  const le = param.string(LE);
  // Per time, series without `le`, and bound: the deltas (a counter's delta is in `sum`).
  const perBound = sql`SELECT time, arrayFilter(k -> k != ${le}, string_keys) AS ck, arrayFilter((v, k) -> k != ${le}, string_values, string_keys) AS cv,
    if(metric = ${bucket}, toFloat64OrNull(string_values[indexOf(string_keys, ${le})]), NULL) AS b,
    sumIf(sum, metric = ${bucket}) AS d, sumIf(sum, metric = ${sumName}) AS s, sumIf(sum, metric = ${countName}) AS c
    FROM ${rows} GROUP BY time, ck, cv, b`;
  // Per time and series: the cumulative counts by bound, ascending (+Inf last).
  const perSeries = sql`SELECT time, ck, cv, arraySort(x -> x.1, groupArrayIf((assumeNotNull(b), d), b IS NOT NULL AND NOT isNaN(b))) AS cum,
    sum(s) AS total_sum, sum(c) AS total_count
    FROM (${perBound}) GROUP BY time, ck, cv`;
  const buckets = sql`SELECT time, ck, cv, total_sum, total_count, arrayMap(x -> x.1, cum) AS bounds,
    arrayMap((x, i) -> greatest(round(x.2 - if(i = 1, 0, cum[i - 1].2)), 0), cum, arrayEnumerate(cum)) AS counts,
    arrayMap(i -> multiIf(bounds[i] = inf, if(i = 1, 0, bounds[i - 1]), i = 1, if(bounds[1] > 0, bounds[1] / 2, bounds[1]), (bounds[i - 1] + bounds[i]) / 2), arrayEnumerate(bounds)) AS reps,
    arrayFirstIndex(n -> n > 0, counts) AS lowest, arrayLastIndex(n -> n > 0, counts) AS highest
    FROM (${perSeries})`;
  const columns = [
    sql`toUInt32(${param.uint32(projectId)}) AS project_id`,
    sql`${param.string(family)} AS metric`,
    sql`time`,
    sql`sipHash64(ck, cv) AS attrs_hash`,
    sql`'histogram' AS instrument`,
    sql`multiIf(lowest = 0, 0, lowest = 1, least(bounds[1], 0), bounds[lowest - 1]) AS min`,
    sql`multiIf(highest = 0, 0, bounds[highest] = inf, if(highest = 1, 0, bounds[highest - 1]), bounds[highest]) AS max`,
    sql`total_sum AS sum`,
    sql`toUInt64(if(total_count > 0, total_count, arraySum(counts))) AS count`,
    sql`toFloat64(0) AS gauge`,
    sql`(arrayFilter((r, n) -> n > 0, reps, counts), arrayMap(n -> toUInt64(n), arrayFilter(n -> n > 0, counts))) AS histogram`,
    sql`ck AS string_keys`,
    sql`cv AS string_values`,
  ];
  return sql`(SELECT ${join(columns, ', ')} FROM (${buckets}))`;
}
