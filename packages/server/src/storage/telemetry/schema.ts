import { METRICS_MIGRATION } from '../../metrics/metricsSchema';

/**
 * Versioned DDL for the telemetry tables (architecture §6, reference ingest §3). Applied in order by
 * `applyMigrations`; a database that has a migration this build does not know refuses to start.
 * TTLs come from config; changing them later is a `MODIFY TTL`, not a new table.
 */
export interface TelemetryMigration {
  version: number;
  name: string;
  statements: (ttl: { spansDays: number; metricsDays: number }) => string[];
}

export const TELEMETRY_MIGRATIONS: TelemetryMigration[] = [
  {
    version: 1,
    name: 'spans',
    statements: ({ spansDays }) => [
      `CREATE TABLE IF NOT EXISTS spans_index (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(Delta, ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1)),
        parent_id UInt64 CODEC(ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        kind LowCardinality(String) CODEC(ZSTD(1)),
        name LowCardinality(String) CODEC(ZSTD(1)),
        event_name String CODEC(ZSTD(1)),
        display_name String CODEC(ZSTD(1)),
        duration Int64 CODEC(T64, ZSTD(1)),
        count Float32 CODEC(ZSTD(1)),
        status_code LowCardinality(String) CODEC(ZSTD(1)),
        status_message String CODEC(ZSTD(1)),
        standalone Bool CODEC(ZSTD(1)),
        link_count UInt8 CODEC(ZSTD(1)),
        event_count UInt8 CODEC(ZSTD(1)),
        event_error_count UInt8 CODEC(ZSTD(1)),
        event_log_count UInt8 CODEC(ZSTD(1)),
        all_keys Array(LowCardinality(String)) CODEC(ZSTD(1)),
        attr_keys Array(LowCardinality(String)) CODEC(ZSTD(1)),
        attr_values Array(String) CODEC(ZSTD(1)),
        deployment_environment LowCardinality(String) CODEC(ZSTD(1)),
        service_name LowCardinality(String) CODEC(ZSTD(1)),
        host_name LowCardinality(String) CODEC(ZSTD(1)),
        db_system LowCardinality(String) CODEC(ZSTD(1)),
        db_statement String CODEC(ZSTD(1)),
        db_operation LowCardinality(String) CODEC(ZSTD(1)),
        db_sql_table LowCardinality(String) CODEC(ZSTD(1)),
        log_severity LowCardinality(String) CODEC(ZSTD(1)),
        log_message String CODEC(ZSTD(1)),
        exception_type LowCardinality(String) CODEC(ZSTD(1)),
        exception_message String CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, system, group_id, time)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
      `CREATE TABLE IF NOT EXISTS spans_data (
        project_id UInt32 CODEC(Delta, ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(T64, ZSTD(1)),
        parent_id UInt64 CODEC(ZSTD(1)),
        time DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
        is_event Bool CODEC(ZSTD(1)),
        data String CODEC(ZSTD(3))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, trace_id, id)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1, index_granularity = 2048`,
    ],
  },
  METRICS_MIGRATION,
];
