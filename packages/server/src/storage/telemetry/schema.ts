import {
  ANNOTATIONS_MIGRATION,
  APPLICATION_ROLLUPS_MIGRATION,
  FOLD_DEDUP_MIGRATION,
  DATAPOINT_LZ4_MIGRATION,
  METRICS_MIGRATION,
  QUARTER_HOURS_MIGRATION,
} from './metricsSchema';
import { ERROR_ARRIVALS_MIGRATION } from './errorArrivals';
import { SPAN_ARRIVALS_MIGRATION } from './spanArrivals';
import { SPAN_SAMPLE_MIGRATION } from './spanSample';
import { SPAN_DURATIONS_MIGRATION } from './spanDurationRollup';
import { SPAN_SYSTEMS_MIGRATION } from './spanSystemRollup';
import {
  SERVICE_GRAPH_HOURS_MIGRATION,
  SERVICE_GRAPH_MIGRATION,
  SERVICE_GRAPH_SPAN_COUNTS_MIGRATION,
} from './serviceGraphSchema';
import type { TelemetryMigration } from './migration';

/**
 * Versioned DDL for the telemetry tables (architecture §6, reference ingest §3). Applied in order by
 * `applyMigrations`; a database that has a migration this build does not know refuses to start.
 * TTLs come from config; changing them later is a `MODIFY TTL`, not a new table.
 *
 * spans_index types are chosen for insert cost (bench/ingest): LowCardinality only on `system` and
 * `service_name`, which most queries filter or group by: parsing a LowCardinality value on insert
 * costs several times a plain string's (migration 5). Its codecs were LZ4 until migration 11, which
 * moved most columns to ZSTD for bytes on disk (SPAN_CODECS below). spans_data is ZSTD: its JSON
 * compresses several times better than under LZ4.
 */
export type { TelemetryMigration } from './migration';

/**
 * ClickHouse's default is 5. With 10,000-row inserts, 20 saved about 10 of ~25 µs of merge CPU
 * per row (bench/ingest/engineCost.ts, docs/benchmarks.md).
 */
const SPANS_MERGE_SELECTOR_BASE = 20;

/** What a group rollup row keeps (migrations 3 and 10), folded as the rows merge. */
const GROUP_ROLLUP_VALUES = `count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(1)),
        display_name SimpleAggregateFunction(any, String) CODEC(ZSTD(1))`;

/** Spans -> per-minute/hour group rows (migration 3). Output names differ from input names on purpose. */
const rollupSelect = (
  bucket: 'toStartOfMinute' | 'toStartOfHour',
) => `SELECT project_id, type, system, group_id, t AS time,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, ${bucket}(time) AS t, count AS c, status_code AS sc, duration AS d, display_name AS dn FROM spans_index)
  GROUP BY project_id, type, system, group_id, t`;

/**
 * Spans -> per-quarter-hour group rows per value of service, host and environment (migration 10):
 * one row per attribute and span before grouping, '' for a span without the attribute. Columns in
 * the table's order: the backfill's INSERT ... SELECT maps them by position.
 */
const attrRollupSelect = `SELECT project_id, k AS attr_key, v AS attr_value, t AS time, type, system, group_id,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfFifteenMinutes(time) AS t, count AS c, status_code AS sc,
      duration AS d, display_name AS dn, [service_name, host_name, deployment_environment] AS vs FROM spans_index)
  ARRAY JOIN ['service.name', 'host.name', 'deployment.environment'] AS k, vs AS v
  GROUP BY project_id, attr_key, attr_value, type, system, group_id, t`;

/**
 * Migration 11 (issue 17, item 2: bytes per stored span): the codec of each span column, measured
 * per column on the `bench/tracing` and `bench/ingest` spans (bench/tracing/bytesPerSpan.ts
 * --codecs, docs/benchmarks.md "Bytes per span"). ZSTD(3) rather than ZSTD(1) for strings: on
 * these short repeated values ZSTD(1) did worse than LZ4 and ZSTD(3) several times better. Random
 * ids stay as they are (nothing compresses them); `attr_keys` stays LZ4 (ZSTD did worse); the
 * data JSON stays ZSTD(1): ZSTD(6) takes a quarter off it but cost ~30% more engine CPU per row.
 * Types are restated as they are: only the codecs change, which applies to parts written from
 * now on (inserts and merges); parts already on disk keep theirs until merged or expired.
 */
export const SPAN_CODECS: Record<string, [column: string, typeAndCodec: string][]> = {
  spans_index: [
    ['trace_id', 'UUID CODEC(ZSTD(1))'],
    ['parent_id', 'UInt64 CODEC(ZSTD(1))'],
    ['group_id', 'UInt64 CODEC(Delta, ZSTD(1))'],
    ['time', "DateTime64(6, 'UTC') CODEC(Delta, ZSTD(3))"],
    ['duration', 'Int64 CODEC(T64, ZSTD(1))'],
    ['count', 'Float32 CODEC(ZSTD(1))'],
    ['attr_values', 'Array(String) CODEC(ZSTD(3))'],
    ['service_name', 'LowCardinality(String) CODEC(ZSTD(1))'],
    ...[
      'type',
      'kind',
      'name',
      'event_name',
      'display_name',
      'status_code',
      'status_message',
      'deployment_environment',
      'host_name',
      'db_system',
      'db_statement',
      'db_operation',
      'db_sql_table',
      'log_severity',
      'log_message',
      'exception_type',
      'exception_message',
    ].map((c): [string, string] => [c, 'String CODEC(ZSTD(3))']),
  ],
  spans_data: [
    ['parent_id', 'UInt64 CODEC(ZSTD(3))'],
    ['time', "DateTime64(9, 'UTC') CODEC(Delta, ZSTD(3))"],
  ],
  // The t-digest states of the group rollups (migrations 3 and 10): ~20% smaller under ZSTD(3).
  ...Object.fromEntries(
    ['span_groups_1m', 'span_groups_1h', 'span_attr_groups_15m'].map((table): [string, [string, string][]] => [
      table,
      [['duration', 'AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3))']],
    ]),
  ),
};

/**
 * spans_data.data once its rows are an hour old (migration 22, issue 39 part 3): the JSON has the
 * part's default codec (CODEC(Default): LZ4 as a part is inserted, cheaper than ZSTD(1)) and the
 * table's TTL recompresses it. A merge writes ZSTD(1) when none of its rows is in the future, and
 * ZSTD(9) when all are an hour old: 19.3 -> 13.8 B/span on the `bench/tracing` set, +~2.5 µs a row
 * each time a part of old rows is written (bench/tracing/dataLevels.ts, docs/benchmarks.md "Bytes per
 * span, issue 39 part 3"). An engine picks a part's TTL codec at merges only, and only for columns
 * without a codec of their own. Part of spans_data's TTL, so `migrate.ts` states it with the
 * retention on every start (`MODIFY TTL` replaces the whole TTL).
 */
export const SPANS_DATA_RECOMPRESS = 'time RECOMPRESS CODEC(ZSTD(1)), time + INTERVAL 1 HOUR RECOMPRESS CODEC(ZSTD(9))';

export const TELEMETRY_MIGRATIONS: TelemetryMigration[] = [
  {
    version: 1,
    name: 'spans',
    statements: ({ spansDays }) => [
      `CREATE TABLE IF NOT EXISTS spans_index (
        project_id UInt32 CODEC(DoubleDelta, LZ4),
        system LowCardinality(String) CODEC(LZ4),
        group_id UInt64 CODEC(Delta, LZ4),
        time DateTime64(6, 'UTC') CODEC(Delta, LZ4),
        trace_id UUID CODEC(LZ4),
        id UInt64 CODEC(LZ4),
        parent_id UInt64 CODEC(LZ4),
        type LowCardinality(String) CODEC(LZ4),
        kind LowCardinality(String) CODEC(LZ4),
        name String CODEC(LZ4),
        event_name String CODEC(LZ4),
        display_name String CODEC(LZ4),
        duration Int64 CODEC(T64, LZ4),
        count Float32 CODEC(LZ4),
        status_code LowCardinality(String) CODEC(LZ4),
        status_message String CODEC(LZ4),
        standalone Bool CODEC(LZ4),
        link_count UInt8 CODEC(LZ4),
        event_count UInt8 CODEC(LZ4),
        event_error_count UInt8 CODEC(LZ4),
        event_log_count UInt8 CODEC(LZ4),
        all_keys Array(String) CODEC(LZ4),
        attr_keys Array(String) CODEC(LZ4),
        attr_values Array(String) CODEC(LZ4),
        deployment_environment LowCardinality(String) CODEC(LZ4),
        service_name LowCardinality(String) CODEC(LZ4),
        host_name String CODEC(LZ4),
        db_system LowCardinality(String) CODEC(LZ4),
        db_statement String CODEC(LZ4),
        db_operation String CODEC(LZ4),
        db_sql_table String CODEC(LZ4),
        log_severity LowCardinality(String) CODEC(LZ4),
        log_message String CODEC(LZ4),
        exception_type String CODEC(LZ4),
        exception_message String CODEC(LZ4)
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
        data String CODEC(ZSTD(1))
      ) ENGINE = MergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, trace_id, id)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1, index_granularity = 2048`,
    ],
  },
  METRICS_MIGRATION,
  {
    // Tracing query engine: per-minute and per-hour rollups of span groups, kept by materialized
    // views, so the group explorer's default query over long ranges reads groups x minutes/hours
    // rows, not every span. Time leads the key: queries select a time range, then group.
    version: 3,
    name: 'span_groups_rollups_and_skip_indexes',
    statements: ({ spansDays }) =>
      (['1m', '1h'] as const)
        .flatMap((g) => {
          const table = `span_groups_${g}`;
          const select = rollupSelect(g === '1m' ? 'toStartOfMinute' : 'toStartOfHour');
          return [
            `CREATE TABLE IF NOT EXISTS ${table} (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(Delta, ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        ${GROUP_ROLLUP_VALUES}
      ) ENGINE = AggregatingMergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, group_id)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
            `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv TO ${table} AS ${select}`,
            // Spans stored before this migration (an upgrade); nothing is ingested while migrations run.
            `INSERT INTO ${table} ${select}`,
          ];
        })
        .concat([
          // Skip indexes for span lists: a system type selects few granules; so does a short time range.
          `ALTER TABLE spans_index ADD INDEX IF NOT EXISTS idx_type type TYPE set(100) GRANULARITY 1`,
          `ALTER TABLE spans_index ADD INDEX IF NOT EXISTS idx_time time TYPE minmax GRANULARITY 1`,
          `ALTER TABLE spans_index MATERIALIZE INDEX idx_type`,
          `ALTER TABLE spans_index MATERIALIZE INDEX idx_time`,
        ]),
  },
  {
    // Ingest cost (bench/ingest, docs/benchmarks.md). all_keys repeated every attribute key next
    // to attr_keys and the attribute columns: it was a sixth of spans_index's insert cost, and
    // "has attribute k" reads attr_keys or the attribute's column instead. A higher merge
    // selector base lets a few more parts wait so that each row is rewritten fewer times:
    // background merges had cost more CPU than the inserts themselves.
    version: 4,
    name: 'spans_leaner_inserts',
    statements: () => [
      `ALTER TABLE spans_index DROP COLUMN IF EXISTS all_keys`,
      `ALTER TABLE spans_index MODIFY SETTING merge_selector_base = ${SPANS_MERGE_SELECTOR_BASE}`,
      `ALTER TABLE spans_data MODIFY SETTING merge_selector_base = ${SPANS_MERGE_SELECTOR_BASE}`,
    ],
  },
  {
    // Ingest cost: the engine's TSV parse is most of an insert, and a LowCardinality value costs
    // several times a plain string's to parse (these six: ~12 of ~130 ms per 8,000-row
    // spans_index insert, bench/ingest/engineCost.ts). They are short, repeated values that LZ4
    // compresses well; `system` and `service_name`, read by most queries, stay LowCardinality.
    version: 5,
    name: 'spans_index_plain_strings',
    statements: () =>
      ['type', 'kind', 'status_code', 'deployment_environment', 'db_system', 'log_severity'].map(
        (column) => `ALTER TABLE spans_index MODIFY COLUMN ${column} String CODEC(LZ4)`,
      ),
  },
  ANNOTATIONS_MIGRATION,
  QUARTER_HOURS_MIGRATION,
  DATAPOINT_LZ4_MIGRATION,
  APPLICATION_ROLLUPS_MIGRATION,
  {
    // Tracing queries filtered on service, host or environment (issue 17): the group rows of
    // migration 3 per quarter hour and per value of each, keyed by attribute and value first, so
    // a filter on one of them reads that value's rows instead of every span of the range
    // (tracing/query/rollup.ts; bench/tracing in docs/benchmarks.md).
    version: 10,
    name: 'span_attr_groups_rollup',
    statements: ({ spansDays }) => [
      `CREATE TABLE IF NOT EXISTS span_attr_groups_15m (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        attr_key LowCardinality(String) CODEC(ZSTD(1)),
        attr_value String CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        ${GROUP_ROLLUP_VALUES}
      ) ENGINE = AggregatingMergeTree
      PARTITION BY toDate(time)
      ORDER BY (project_id, attr_key, attr_value, time, type, system, group_id)
      TTL toDate(time) + INTERVAL ${spansDays} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS span_attr_groups_15m_mv TO span_attr_groups_15m AS ${attrRollupSelect}`,
      // Spans stored before this migration; nothing is ingested while migrations run.
      `INSERT INTO span_attr_groups_15m ${attrRollupSelect}`,
    ],
  },
  {
    // Bytes per stored span (issue 17, item 2): SPAN_CODECS above.
    version: 11,
    name: 'span_column_codecs',
    // One ALTER per table: a metadata change, no part rewritten.
    statements: () =>
      Object.entries(SPAN_CODECS).map(
        ([table, columns]) =>
          `ALTER TABLE ${table} ${columns.map(([column, typeAndCodec]) => `MODIFY COLUMN ${column} ${typeAndCodec}`).join(', ')}`,
      ),
  },
  ERROR_ARRIVALS_MIGRATION,
  {
    // Filters on an attribute of the arrays over every system (issue 17, item 5): a bloom filter
    // of each granule's attr_values lets `has(attr_values, v)`, which the tracing compiler adds
    // beside `attr = v`, skip the granules without v. Instrumentations set such attributes on the
    // spans they describe (http.route on HTTP server spans), and spans_index is ordered by
    // system and group, so one value sits in few granules (bench/tracing in docs/benchmarks.md).
    version: 13,
    name: 'span_attr_values_bloom',
    statements: () => [
      `ALTER TABLE spans_index ADD INDEX IF NOT EXISTS idx_attr_values attr_values TYPE bloom_filter(0.01) GRANULARITY 1`,
      `ALTER TABLE spans_index MATERIALIZE INDEX idx_attr_values`,
    ],
  },
  SERVICE_GRAPH_MIGRATION,
  SERVICE_GRAPH_SPAN_COUNTS_MIGRATION,
  SERVICE_GRAPH_HOURS_MIGRATION,
  SPAN_ARRIVALS_MIGRATION,
  SPAN_SAMPLE_MIGRATION,
  FOLD_DEDUP_MIGRATION,
  SPAN_SYSTEMS_MIGRATION,
  SPAN_DURATIONS_MIGRATION,
  {
    // Bytes per span (issue 39, part 3): SPANS_DATA_RECOMPRESS above. Metadata only; the TTL that
    // recompresses comes with the retention (migrate.ts), which rewrites the parts already stored
    // once, in the background (the engine's MATERIALIZE TTL after a changed TTL).
    version: 22,
    name: 'spans_data_recompress',
    statements: () => [`ALTER TABLE spans_data MODIFY COLUMN data String CODEC(Default)`],
  },
];
