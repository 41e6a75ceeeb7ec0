import type { TelemetryMigration } from './migration';

/**
 * Telemetry migration 2 (reserved for metrics): datapoints per minute per series, an hourly
 * rollup fed by a materialized view, and the metric catalogue (reference ingest §3.4, §5.4).
 *
 * Every column is a SimpleAggregateFunction so ClickHouse folds rows of one (project, metric,
 * minute, series) together on merge: sums and counts add, min/max combine, `gauge` keeps the last
 * value. Histograms are stored as a (representative value -> count) map folded with `sumMap`, so
 * quantiles are computed from exact bucket counts at query time (no bfloat16 state to encode).
 */
const DATAPOINT_COLUMNS = `
  project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
  metric LowCardinality(String) CODEC(ZSTD(1)),
  time DateTime CODEC(DoubleDelta, ZSTD(1)),
  attrs_hash UInt64 CODEC(Delta, ZSTD(1)),
  instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(ZSTD(1)),
  min SimpleAggregateFunction(min, Float64) CODEC(ZSTD(1)),
  max SimpleAggregateFunction(max, Float64) CODEC(ZSTD(1)),
  sum SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
  count SimpleAggregateFunction(sum, UInt64) CODEC(T64, ZSTD(1)),
  gauge SimpleAggregateFunction(anyLast, Float64) CODEC(ZSTD(1)),
  histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(ZSTD(1)),
  string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1)),
  string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1))`;

/**
 * A rollup of the minutes to `period` (`toStartOfHour`, `toStartOfFifteenMinutes`): what its
 * materialized view selects and what a migration backfills with. `annotations` (migration 6) is
 * kept from the minutes once that column exists. prefer_column_name_to_alias: `min(min) AS min`
 * would otherwise be a cyclic alias.
 */
export const rollupColumns = (
  period: string,
  withAnnotations: boolean,
  gauge = 'anyLast(gauge)',
) => `project_id, metric, ${period}(time) AS time, attrs_hash,
      anyLast(instrument) AS instrument, min(min) AS min, max(max) AS max, sum(sum) AS sum,
      sum(count) AS count, ${gauge} AS gauge, sumMap(histogram) AS histogram,
      anyLast(string_keys) AS string_keys, anyLast(string_values) AS string_values${withAnnotations ? ',\n      anyLast(annotations) AS annotations' : ''}`;

const rollupSelect = (period: string, withAnnotations: boolean) => `SELECT ${rollupColumns(period, withAnnotations)}
    FROM datapoint_minutes
    GROUP BY project_id, metric, ${period}(time), attrs_hash
    SETTINGS prefer_column_name_to_alias = 1`;

/** The hourly rollup. */
export const HOURS_VIEW = (withAnnotations: boolean) =>
  `CREATE MATERIALIZED VIEW IF NOT EXISTS datapoint_hours_mv TO datapoint_hours AS
    ${rollupSelect('toStartOfHour', withAnnotations)}`;

const datapointTable = (
  name: string,
  metricsDays: number,
  extraColumns = '',
) => `CREATE TABLE IF NOT EXISTS ${name} (${DATAPOINT_COLUMNS}${extraColumns}
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toDate(time)
    ORDER BY (project_id, metric, time, attrs_hash)
    TTL toDate(time) + INTERVAL ${metricsDays} DAY DELETE
    SETTINGS ttl_only_drop_parts = 1`;

const ANNOTATIONS_COLUMN = 'annotations SimpleAggregateFunction(anyLast, String) CODEC(ZSTD(1))';

/**
 * Migration 6: per-series annotations (JSON of names such as `display.name`, for legends and
 * tables; not part of the series identity), written with the metrics from spans.
 */
export const ANNOTATIONS_MIGRATION: TelemetryMigration = {
  version: 6,
  name: 'datapoint_annotations',
  statements: () => [
    ...['datapoint_minutes', 'datapoint_hours'].map(
      (t) => `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${ANNOTATIONS_COLUMN}`,
    ),
    `DROP VIEW IF EXISTS datapoint_hours_mv`,
    HOURS_VIEW(true),
  ],
};

export const METRICS_MIGRATION: TelemetryMigration = {
  version: 2,
  name: 'metrics',
  statements: ({ metricsDays }) => [
    datapointTable('datapoint_minutes', metricsDays),
    datapointTable('datapoint_hours', metricsDays),
    HOURS_VIEW(false),
    `CREATE TABLE IF NOT EXISTS metrics_catalog (
      project_id UInt32,
      name String,
      description SimpleAggregateFunction(anyLast, String),
      unit SimpleAggregateFunction(anyLast, String),
      instrument SimpleAggregateFunction(anyLast, String),
      attr_keys SimpleAggregateFunction(anyLast, Array(String)),
      created_at SimpleAggregateFunction(min, DateTime),
      updated_at SimpleAggregateFunction(max, DateTime)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (project_id, name)`,
  ],
};

/**
 * Migration 7: a 15-minute rollup, read by grids of 15 and 30 minutes (ranges of 20 to 60 hours,
 * the 24 h of a dashboard): a series reporting every minute has 96 rows a day there instead of
 * 1,440. Filled from the minutes already stored, then kept by its view (migrations run before
 * anything is ingested).
 */
export const QUARTER_HOURS_MIGRATION: TelemetryMigration = {
  version: 7,
  name: 'datapoint_15m',
  statements: ({ metricsDays }) => [
    datapointTable('datapoint_15m', metricsDays, `,\n  ${ANNOTATIONS_COLUMN}`),
    `INSERT INTO datapoint_15m ${rollupSelect('toStartOfFifteenMinutes', true)}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS datapoint_15m_mv TO datapoint_15m AS
    ${rollupSelect('toStartOfFifteenMinutes', true)}`,
  ],
};

/** The codec-bearing column definitions of a datapoint table (annotations, migration 6, included). */
const datapointColumnDefs = (): string[] =>
  `${DATAPOINT_COLUMNS},\n  ${ANNOTATIONS_COLUMN}`
    .split(',\n')
    .map((c) => c.trim())
    .filter((c) => c.includes('CODEC('));

/**
 * Migration 8: LZ4 instead of ZSTD(1) on the datapoint tables, as on spans_index (migration 5).
 * Metrics from spans write a row per series and minute of every span batch into the minutes and,
 * by their views, the 15-minute and hourly rollups: compressing those parts took about a tenth of
 * their insert CPU (bench/ingest, 8.1 -> 7.0 µs per datapoint row). The tables are small next to the spans, so the larger files cost
 * little. Only new parts (and merges) use the new codec; nothing is rewritten.
 */
export const DATAPOINT_LZ4_MIGRATION: TelemetryMigration = {
  version: 8,
  name: 'datapoint_lz4',
  statements: () =>
    ['datapoint_minutes', 'datapoint_15m', 'datapoint_hours'].flatMap((t) =>
      datapointColumnDefs().map((c) => `ALTER TABLE ${t} MODIFY COLUMN ${c.replace(/ZSTD\(1\)/g, 'LZ4')}`),
    ),
};

/** The embedded store's rollup watermark (datapointRollups.ts); one row, the highest `seq` current. */
export const ROLLUP_STATE_TABLE = 'datapoint_rollup_state';

/**
 * Migration 9, embedded store only (`rollups: 'application'`): the 15-minute and hourly rollups
 * are written by the application once per closed window instead of by views on every insert
 * (docs/decisions/datapoint-rollups.md). The views go; the watermark starts at the current hour,
 * whose rollup rows the views filled with minutes on both sides of any watermark, so they are
 * deleted and the job rolls that hour again from the minutes. A remote ClickHouse keeps its views
 * (nothing to do there).
 */
export const APPLICATION_ROLLUPS_MIGRATION: TelemetryMigration = {
  version: 9,
  name: 'datapoint_rollups_by_application',
  statements: ({ rollups }) =>
    rollups !== 'application'
      ? []
      : [
          `CREATE TABLE IF NOT EXISTS ${ROLLUP_STATE_TABLE} (id UInt8, seq UInt64, watermark DateTime, pending_to DateTime)
    ENGINE = ReplacingMergeTree(seq) ORDER BY id`,
          `DROP VIEW IF EXISTS datapoint_15m_mv`,
          `DROP VIEW IF EXISTS datapoint_hours_mv`,
          `INSERT INTO ${ROLLUP_STATE_TABLE} (id, seq, watermark, pending_to) SELECT 0, 1, toStartOfHour(now()), toDateTime(0)`,
          ...['datapoint_15m', 'datapoint_hours'].map(
            (t) => `DELETE FROM ${t} WHERE time >= (SELECT max(watermark) FROM ${ROLLUP_STATE_TABLE})`,
          ),
        ],
};

/**
 * Migration 19, embedded store only: `datapoint_minutes` keeps the deduplication tokens of its
 * last 1,000 inserts' blocks, so the datapoint fold's checkpoint inserted again after a kill -9
 * is dropped if it had committed (datapointFoldWriter.ts, docs/decisions/metrics-ingest-fold.md).
 * Every other insert of the store runs with `insert_deduplicate = 0` (the session's default), as
 * without the window. (18 is taken by a change made in parallel.)
 */
export const FOLD_DEDUP_MIGRATION: TelemetryMigration = {
  version: 19,
  name: 'datapoint_fold_dedup',
  statements: ({ rollups }) =>
    rollups !== 'application'
      ? []
      : [`ALTER TABLE datapoint_minutes MODIFY SETTING non_replicated_deduplication_window = 1000`],
};
