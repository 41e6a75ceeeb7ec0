import { param, sql, type SqlFragment } from '../sql';

/**
 * The span groups' quarter hours with their percentiles worked out (telemetry migration 21, issue
 * 42): one row per (project, type, system, group, quarter hour, run), the fold of that quarter's
 * `span_attr_groups_15m` rows of one attribute (every span has one row per attribute there, so the
 * rows of one attribute are the group's quarter): count, errors, min/max duration, display name,
 * and `q`, the quantiles of the merged t-digest states at the levels the writer gives (in that
 * order). The 24 h time series of the top groups reads them instead of merging ~10,000 states per
 * request.
 *
 * Written by the application once per closed quarter hour (tracing/query/windowRollupJob.ts), not
 * by a view on inserts. A quarter written again (spans came after it was rolled up) gets rows
 * under a newer `run`; readers (tracing/query/groupQuarters.ts) take a quarter's latest run only in
 * hours whose latest rows add up to the hour rollup's count, and the attribute rows elsewhere.
 */
export const SPAN_GROUP_QUARTERS_TABLE = 'span_group_quarters';

const constant = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });

/**
 * Writes the quarters in [from, to) (whole quarter hours) from the `attrKey` rows of
 * `span_attr_groups_15m`, under `run`, with the quantiles at `levels` (numbers in (0, 1)).
 */
export function spanGroupQuartersInsert(
  from: Date,
  to: Date,
  run: bigint,
  attrKey: string,
  levels: readonly number[],
): SqlFragment {
  if (!levels.length || levels.some((l) => !(l > 0 && l < 1))) throw new Error('quantile levels must be in (0, 1)');
  return sql`INSERT INTO ${constant(SPAN_GROUP_QUARTERS_TABLE)} SELECT project_id, type, system, group_id, t AS time,
      sum(c) AS count, sum(e) AS error_count, min(mi) AS min_duration, max(ma) AS max_duration,
      quantilesTDigestMerge(${constant(levels.join(', '))})(d) AS q, any(dn) AS display_name, ${param.uint64(run)} AS run
    FROM (SELECT project_id, type, system, group_id, time AS t, count AS c, error_count AS e, min_duration AS mi,
        max_duration AS ma, duration AS d, display_name AS dn FROM span_attr_groups_15m
      WHERE attr_key = ${param.string(attrKey)} AND time >= ${param.secondsUp(from)} AND time < ${param.secondsUp(to)})
    GROUP BY project_id, type, system, group_id, t`;
}

/** The table (migration 21): a plain MergeTree, the rows of every run stay until the retention. */
export const spanGroupQuartersDdl = (spansDays: number) => `CREATE TABLE IF NOT EXISTS ${SPAN_GROUP_QUARTERS_TABLE} (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(Delta, ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        count Float64 CODEC(ZSTD(1)),
        error_count Float64 CODEC(ZSTD(1)),
        min_duration Int64 CODEC(ZSTD(1)),
        max_duration Int64 CODEC(ZSTD(1)),
        q Array(Float64) CODEC(ZSTD(1)),
        display_name String CODEC(ZSTD(3)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, group_id)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`;
