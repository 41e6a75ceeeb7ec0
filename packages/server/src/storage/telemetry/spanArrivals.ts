import type { TelemetryMigration } from './migration';

/**
 * `span_arrivals` (telemetry migration 17): one narrow row per stored span, log or event row, with
 * the time it arrived (`arrived`, the engine's clock when its insert ran), ordered by arrival. The
 * live tail (tracing/tail/) follows it: a row is tailed when it is stored, whatever its own
 * timestamp (a Collector catching up, a retried batch), in the order of `(arrived, trace_id, id)`,
 * which is also its cursor (docs/decisions/live-tail.md).
 *
 * Only the key and the row's time: the tail finds the row in spans_index by key, within the times
 * of the window's rows, so the `where` filters of the query language run on spans_index as
 * everywhere else. Kept one day: a tail reads the last seconds, and a cursor resumes within a day.
 */
export const SPAN_ARRIVALS_TABLE = 'span_arrivals';
export const SPAN_ARRIVALS_DAYS = 1;

export const SPAN_ARRIVALS_MIGRATION: TelemetryMigration = {
  version: 17,
  name: 'span_arrivals',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS ${SPAN_ARRIVALS_TABLE} (
        project_id UInt32 CODEC(ZSTD(1)),
        arrived DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(arrived)
      ORDER BY (project_id, arrived, trace_id, id)
      TTL toDate(arrived) + INTERVAL ${SPAN_ARRIVALS_DAYS} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
    // now64() is taken once per insert, when it starts; its rows become visible when it commits,
    // which is why the tail reads only arrivals older than a settle time (tracing/tail/).
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${SPAN_ARRIVALS_TABLE}_mv TO ${SPAN_ARRIVALS_TABLE} AS SELECT now64(6, 'UTC') AS arrived, project_id, time, trace_id, id FROM spans_index`,
  ],
};
