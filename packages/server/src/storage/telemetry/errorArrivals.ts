import { ERROR_SYSTEMS_SQL_LIST, PROMOTED_ATTRS } from '@lantern/shared';
import type { TelemetryMigration } from './migration';

/**
 * `error_arrivals` (telemetry migration 12): the rows that raise error alerts, as they are stored,
 * with the time they arrived (`arrived`, the engine's clock when their insert ran), ordered by
 * arrival. They are:
 *
 * - failed spans (status error; not span events);
 * - standalone error logs (no trace, severity error, fatal or panic: ERROR_SYSTEMS of
 *   @lantern/shared). A log that carries an exception raises it
 *   through its exception row (grouped by the exception's type and message), not through its log
 *   row too. Logs in a trace are left to their trace's failed span, as before. (The reference
 *   raises no alert for standalone logs, a quirk it flags: an application that only ships logs
 *   was never alerted.)
 *
 * Error monitors read it by arrival, so each row is seen once however long its span lasted or
 * however late it came; a scan of spans_index by span start missed a span that started before
 * the last scan and was stored after it (any request longer than a minute, any exporter more
 * than a minute late). Kept two days: a scan only ever reads the last minutes.
 */
export const ERROR_ARRIVALS_TABLE = 'error_arrivals';
export const ERROR_ARRIVALS_DAYS = 2;

const ERROR_ROW_COLUMNS = [
  'project_id',
  'time',
  'system',
  'group_id',
  'type',
  'trace_id',
  'id',
  'display_name',
  'attr_keys',
  'attr_values',
  ...PROMOTED_ATTRS.map(([, column]) => column),
] as const;

const promotedDdl = PROMOTED_ATTRS.map(([, column]) => `${column} String CODEC(ZSTD(3))`).join(',\n        ');
const columns = ERROR_ROW_COLUMNS.join(', ');
const ERROR_ROW = `((event_name = '' AND status_code = 'error') OR (standalone AND system IN ${ERROR_SYSTEMS_SQL_LIST} AND NOT (event_name = 'log' AND exception_type != '')))`;

export const ERROR_ARRIVALS_MIGRATION: TelemetryMigration = {
  version: 12,
  name: 'error_arrivals',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS ${ERROR_ARRIVALS_TABLE} (
        project_id UInt32 CODEC(ZSTD(1)),
        arrived DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1)),
        display_name String CODEC(ZSTD(3)),
        attr_keys Array(String) CODEC(ZSTD(3)),
        attr_values Array(String) CODEC(ZSTD(3)),
        ${promotedDdl}
      ) ENGINE = MergeTree
      PARTITION BY toDate(arrived)
      ORDER BY (project_id, arrived)
      TTL toDate(arrived) + INTERVAL ${ERROR_ARRIVALS_DAYS} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
    // now64() is taken once per insert, when the insert starts; the rows become visible when it
    // commits, which is why a scan stays a little behind the engine's clock (evaluateErrors.ts).
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ERROR_ARRIVALS_TABLE}_mv TO ${ERROR_ARRIVALS_TABLE} AS SELECT now64(6, 'UTC') AS arrived, ${columns} FROM spans_index WHERE ${ERROR_ROW}`,
    // The last hour's error rows, arrived at their start: the scans before this migration went
    // by span start, so the cursor they left is a span time, and from it on every span is read
    // once (spans that started before it are not read again). Nothing is ingested meanwhile.
    `INSERT INTO ${ERROR_ARRIVALS_TABLE} (arrived, ${columns}) SELECT time, ${columns} FROM spans_index WHERE ${ERROR_ROW} AND time >= now64(6, 'UTC') - INTERVAL 1 HOUR`,
  ],
};
