import type { TelemetryMigration } from './migration';

/**
 * `spans_sample` (telemetry migration 18, issue 38): every row of spans_index whose trace is in a
 * fixed 2 % of traces, `cityHash64(trace_id) % SPAN_SAMPLE_SCALE < SPAN_SAMPLE_K`, ordered by time.
 * "What changed" (tracing/attrDeltas/) reads it for long ranges instead of spans_index: its sample
 * by trace id (`cityHash64(trace_id) % SCALE < k`, k <= SPAN_SAMPLE_K) is the same rows from here,
 * and reading a day of it is a range of a small table, where the same sample of spans_index, ordered
 * by (project, system, group, time), reads every granule (docs/benchmarks.md, "What changed").
 *
 * Filled by a materialized view on spans_index (so late spans, any node, and reruns are as
 * spans_index has them: nothing to reconcile), and backfilled from the spans stored before this
 * migration. Same columns and types as spans_index, so the query language's filters run on it
 * unchanged (a test compares the two tables' columns: a column added to spans_index is added here
 * in the same migration). Kept as long as the spans.
 */
export const SPAN_SAMPLE_TABLE = 'spans_sample';
/** The hash space of the sample: the same as What changed's (attrDeltasSql.ts, SAMPLE_SCALE). */
export const SPAN_SAMPLE_SCALE = 1_000_000;
/** Traces kept: hash below this (2 %). */
export const SPAN_SAMPLE_K = 20_000;

/** spans_index's columns as they are after migrations 1-17 (codecs of its migration 11). */
const COLUMNS = `project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(Delta, ZSTD(3)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1)),
        parent_id UInt64 CODEC(ZSTD(1)),
        type String CODEC(ZSTD(3)),
        kind String CODEC(ZSTD(3)),
        name String CODEC(ZSTD(3)),
        event_name String CODEC(ZSTD(3)),
        display_name String CODEC(ZSTD(3)),
        duration Int64 CODEC(T64, ZSTD(1)),
        count Float32 CODEC(ZSTD(1)),
        status_code String CODEC(ZSTD(3)),
        status_message String CODEC(ZSTD(3)),
        standalone Bool CODEC(ZSTD(1)),
        link_count UInt8 CODEC(ZSTD(1)),
        event_count UInt8 CODEC(ZSTD(1)),
        event_error_count UInt8 CODEC(ZSTD(1)),
        event_log_count UInt8 CODEC(ZSTD(1)),
        attr_keys Array(String) CODEC(LZ4),
        attr_values Array(String) CODEC(ZSTD(3)),
        deployment_environment String CODEC(ZSTD(3)),
        service_name LowCardinality(String) CODEC(ZSTD(1)),
        host_name String CODEC(ZSTD(3)),
        db_system String CODEC(ZSTD(3)),
        db_statement String CODEC(ZSTD(3)),
        db_operation String CODEC(ZSTD(3)),
        db_sql_table String CODEC(ZSTD(3)),
        log_severity String CODEC(ZSTD(3)),
        log_message String CODEC(ZSTD(3)),
        exception_type String CODEC(ZSTD(3)),
        exception_message String CODEC(ZSTD(3))`;

const SAMPLE_SELECT = `SELECT * FROM spans_index WHERE cityHash64(trace_id) % ${SPAN_SAMPLE_SCALE} < ${SPAN_SAMPLE_K}`;

export const SPAN_SAMPLE_MIGRATION: TelemetryMigration = {
  version: 18,
  name: 'spans_sample',
  statements: ({ spansDays }) => [
    `CREATE TABLE IF NOT EXISTS ${SPAN_SAMPLE_TABLE} (
        ${COLUMNS}
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${SPAN_SAMPLE_TABLE}_mv TO ${SPAN_SAMPLE_TABLE} AS ${SAMPLE_SELECT}`,
    // Spans stored before this migration (an upgrade); nothing is ingested while migrations run.
    `INSERT INTO ${SPAN_SAMPLE_TABLE} ${SAMPLE_SELECT}`,
  ],
};
