import { param, sql, type SqlFragment, constant } from '../sql';
import type { TelemetryMigration } from './migration';

/**
 * Rows of `spans_index` per duration bin and 5 minutes (telemetry migration 21, issue 42): one row
 * per (project, type, system, 5 minutes, bin, run) with how many rows fall in the bin (`count`)
 * and the sum of their `count` column (`weight`, what the group rollups sum: readers compare it
 * with `span_groups_1h`). Bins are 1, 2, 5 x 10^n ns (DURATION_BIN). Explore's duration heatmap
 * reads them instead of every span of a day or a week.
 *
 * Written by the application once per closed window (tracing/query/durationRollupJob.ts, on the
 * node holding the evaluator lease), not by a view on inserts: nothing more on the insert path.
 * A window written again (spans came after it was rolled up) gets rows under a newer `run`;
 * readers take a window's latest run only in hours whose latest rows add up to the hour rollup's
 * count, and the spans everywhere else (tracing/query/durationRollup.ts).
 */
export const SPAN_DURATIONS_TABLE = 'span_durations_5m';

/**
 * A duration's bin (`d`: an Int64 expression, ns): bins `3n`, `3n + 1`, `3n + 2` start at 1, 2,
 * 5 x 10^n ns; durations below 1 ns are in bin 0. The heatmap over spans bins the same way.
 */
export function durationBin(d: 'duration' | 's.duration'): SqlFragment {
  const g = `greatest(${d}, 1)`;
  const e = `floor(log10(${g}))`;
  return constant(`toInt32(${e} * 3 + multiIf(${g} >= 5 * exp10(${e}), 2, ${g} >= 2 * exp10(${e}), 1, 0))`);
}

/** Writes the windows in [from, to) (whole 5 minutes) from `spans_index`, under `run`. */
export function spanDurationsInsert(from: Date, to: Date, run: bigint): SqlFragment {
  return sql`INSERT INTO ${constant(SPAN_DURATIONS_TABLE)} SELECT project_id, type, system, t AS time, bin, count() AS count,
      sum(c) AS weight, ${param.uint64(run)} AS run
    FROM (SELECT project_id, type, system, toStartOfFiveMinutes(time) AS t, ${durationBin('duration')} AS bin,
        toFloat64(count) AS c FROM spans_index WHERE time >= ${param.time(from)} AND time < ${param.time(to)})
    GROUP BY project_id, type, system, t, bin`;
}

export const SPAN_DURATIONS_MIGRATION: TelemetryMigration = {
  version: 21,
  name: 'span_durations_5m',
  // Plain MergeTrees: the rows of every run stay (readers take a window's latest), and leave with
  // the retention. No backfill here: the jobs roll the stored spans up window by window after the
  // start (a day of 100M spans is a scan of every span), and readers read the spans until then.
  statements: ({ spansDays }) => [
    `CREATE TABLE IF NOT EXISTS ${SPAN_DURATIONS_TABLE} (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        bin Int32 CODEC(ZSTD(1)),
        count UInt64 CODEC(ZSTD(1)),
        weight Float64 CODEC(ZSTD(1)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, bin)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
  ],
};
