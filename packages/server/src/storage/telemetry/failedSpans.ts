import { PROMOTED_ATTRS } from '@lantern/shared';
import type { TelemetryMigration } from './migration';

/**
 * `failed_spans` (telemetry migration 12): every failed span (status error; not span events) as it
 * is stored, with the time it arrived (`arrived`, the engine's clock when its insert ran), ordered
 * by arrival. Error monitors read it by arrival, so each failed span is seen once however long it
 * lasted or however late it came; a scan of spans_index by span start missed a span that started
 * before the last scan and was stored after it (any request longer than a minute, any exporter
 * more than a minute late). Kept two days: a scan only ever reads the last minutes.
 */
export const FAILED_SPANS_TABLE = 'failed_spans';
export const FAILED_SPANS_DAYS = 2;

/** The spans_index columns an error alert is made of (alerting/errorSpans.ts). */
export const FAILED_SPAN_COLUMNS = [
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
const columns = FAILED_SPAN_COLUMNS.join(', ');
const FAILED = `status_code = 'error' AND event_name = ''`;

export const FAILED_SPANS_MIGRATION: TelemetryMigration = {
  version: 12,
  name: 'failed_spans_by_arrival',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS ${FAILED_SPANS_TABLE} (
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
      TTL toDate(arrived) + INTERVAL ${FAILED_SPANS_DAYS} DAY DELETE
      SETTINGS ttl_only_drop_parts = 1`,
    // now64() is taken once per insert, when the insert starts; the rows become visible when it
    // commits, which is why a scan stays a little behind the engine's clock (evaluateErrors.ts).
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${FAILED_SPANS_TABLE}_mv TO ${FAILED_SPANS_TABLE} AS SELECT now64(6, 'UTC') AS arrived, ${columns} FROM spans_index WHERE ${FAILED}`,
    // The last hour's failed spans, arrived at their start: the scans before this migration went
    // by span start, so the cursor they left is a span time, and from it on every span is read
    // once (spans that started before it are not read again). Nothing is ingested meanwhile.
    `INSERT INTO ${FAILED_SPANS_TABLE} (arrived, ${columns}) SELECT time, ${columns} FROM spans_index WHERE ${FAILED} AND time >= now64(6, 'UTC') - INTERVAL 1 HOUR`,
  ],
};
