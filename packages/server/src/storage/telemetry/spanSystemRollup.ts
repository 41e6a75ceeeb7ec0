import { param, sql, type SqlFragment, constant } from '../sql';
import type { TelemetryMigration } from './migration';

/**
 * Per-system 5-minute rows of the span group rollups (telemetry migration 20, issue 42): one row per
 * (project, type, system, 5 minutes, run), the fold of that window's `span_groups_1m` rows (count,
 * errors, min/max duration, the merged t-digest state). The 24 h percentiles chart and the
 * Overview's 24 h sparklines by system read them instead of every span.
 *
 * Written by the application once per closed window (tracing/query/windowRollupJob.ts, on the node
 * holding the evaluator lease), not by a view on inserts: nothing more on the insert path. A window
 * written again (spans came after it was rolled up) gets rows under a newer `run`; readers
 * (tracing/query/rollup.ts) take a window's rows of its latest run only in hours where the latest
 * rows of every window add up to the hour rollup's count (per type and system), and the minute
 * rows everywhere else: an hour with a window not yet rolled up, or one spans reached since, reads
 * the minutes, so counts stay the minute rows' (the spans').
 */
export const SPAN_SYSTEMS_TABLE = 'span_systems_5m';

/** How far behind the windows stay: spans arrive when they end, after batching (datapointRollups.ts). */
export const SPAN_SYSTEMS_LAG_MS = 15 * 60_000;

/** The minute rows (`where` over span_groups_1m) folded into 5-minute rows, in the table's column order. */
const foldSelect = (where: string, run: string) => `SELECT project_id, type, system, t AS time,
    sum(c) AS count, sum(e) AS error_count, min(mi) AS min_duration, max(ma) AS max_duration,
    quantilesTDigestMergeState(0.5)(d) AS duration, toUInt64(${run}) AS run
  FROM (SELECT project_id, type, system, toStartOfFiveMinutes(time) AS t, count AS c, error_count AS e,
      min_duration AS mi, max_duration AS ma, duration AS d FROM span_groups_1m WHERE ${where})
  GROUP BY project_id, type, system, t`;

/** Writes the windows in [from, to) (whole 5 minutes) from the minute rows, under `run`. */
export function spanSystemsInsert(from: Date, to: Date, run: bigint): SqlFragment {
  const [head, middle, tail] = foldSelect('\u0000', '\u0000').split('\u0000');
  return sql`INSERT INTO span_systems_5m ${constant(head)}${param.uint64(run)}${constant(middle)}time >= ${param.secondsUp(from)} AND time < ${param.secondsUp(to)}${constant(tail)}`;
}

export const SPAN_SYSTEMS_MIGRATION: TelemetryMigration = {
  version: 20,
  name: 'span_systems_5m',
  // The minute rows' types, so that readers take both in one UNION ALL; a plain MergeTree: the
  // rows of every run stay (readers take a window's latest), and leave with the retention.
  statements: ({ spansDays }) => [
    `CREATE TABLE IF NOT EXISTS ${SPAN_SYSTEMS_TABLE} (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
    // The closed windows of the spans stored before this migration; the job carries on from the last.
    `INSERT INTO ${SPAN_SYSTEMS_TABLE} ${foldSelect(`time < toStartOfFiveMinutes(now() - INTERVAL ${SPAN_SYSTEMS_LAG_MS / 60_000} MINUTE)`, '0')}`,
  ],
};
