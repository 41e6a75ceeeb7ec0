import type { TelemetryMigration } from './migration';

/**
 * The service graph's tables (telemetry migration 14, issue 36). Storage defines the rows; the
 * tracing area's job (tracing/serviceGraph/) fills them once per closed minute from the spans, off
 * the insert path, on the one node that holds the evaluator lease.
 *
 * - `service_graph_minutes`: one row per (project, minute, run, node or edge): a node is a service
 *   (`client`, `server` empty) with the calls, errors and a t-digest state of the durations of its
 *   server spans; an edge (`client` -> `server`) the calls as the client measured them. The states
 *   merge, so any range of minutes folds into one p50/p99 (as the span group rollups do).
 * - `service_graph_runs`: which run wrote each minute (`run`, increasing), and whether that run was
 *   the window's last (`final`). A reader takes a minute's rows of its latest run only, so a window
 *   written again (a provisional run, or a rerun after a crash) replaces its rows instead of adding
 *   to them; rows of an older or unfinished run are never read and leave with the retention.
 */
export const SERVICE_GRAPH_TABLE = 'service_graph_minutes';
export const SERVICE_GRAPH_RUNS_TABLE = 'service_graph_runs';

/** A minute's or an hour's rows: the same columns. */
const GRAPH_COLUMNS = `        project_id UInt32 CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1)),
        row_type LowCardinality(String) CODEC(ZSTD(1)),
        client LowCardinality(String) CODEC(ZSTD(1)),
        server LowCardinality(String) CODEC(ZSTD(1)),
        server_type LowCardinality(String) CODEC(ZSTD(1)),
        connection_type LowCardinality(String) CODEC(ZSTD(1)),
        calls UInt64 CODEC(ZSTD(1)),
        errors UInt64 CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5, 0.99), Float64) CODEC(ZSTD(3))`;

/** A table of a minute's or an hour's rows, kept as long as the spans. */
const graphTable = (name: string, spansDays: number) => `CREATE TABLE IF NOT EXISTS ${name} (
${GRAPH_COLUMNS}
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, row_type, client, server)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`;

/** The record of which run wrote each minute or hour; `extra`: columns after `run`. */
const runsTable = (name: string, extra: string, spansDays: number) => `CREATE TABLE IF NOT EXISTS ${name} (
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1))${extra}
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (time, run)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`;

export const SERVICE_GRAPH_MIGRATION: TelemetryMigration = {
  version: 14,
  name: 'service_graph',
  statements: ({ spansDays }) => [
    graphTable(SERVICE_GRAPH_TABLE, spansDays),
    runsTable(
      SERVICE_GRAPH_RUNS_TABLE,
      `,
        final UInt8 CODEC(ZSTD(1))`,
      spansDays,
    ),
  ],
};

export const SERVICE_GRAPH_SPAN_COUNTS_MIGRATION: TelemetryMigration = {
  version: 15,
  name: 'service_graph_span_counts',
  statements: () => [`ALTER TABLE ${SERVICE_GRAPH_RUNS_TABLE} ADD COLUMN IF NOT EXISTS spans UInt64 CODEC(ZSTD(1))`],
};

/**
 * Migration 16: the hours (`service_graph_hours`), each the fold of its 60 minutes' latest rows,
 * written by the job once all its minutes are final, under the run that wrote it; which run is an
 * hour's is recorded in `service_graph_hour_runs`, as for the minutes. A day's graph reads 24 hour
 * rows per edge instead of 1,440 minute rows (docs/benchmarks.md, "Service graph").
 */
export const SERVICE_GRAPH_HOURS_TABLE = 'service_graph_hours';
export const SERVICE_GRAPH_HOUR_RUNS_TABLE = 'service_graph_hour_runs';
export const SERVICE_GRAPH_HOURS_MIGRATION: TelemetryMigration = {
  version: 16,
  name: 'service_graph_hours',
  statements: ({ spansDays }) => [
    graphTable(SERVICE_GRAPH_HOURS_TABLE, spansDays),
    runsTable(SERVICE_GRAPH_HOUR_RUNS_TABLE, '', spansDays),
  ],
};
