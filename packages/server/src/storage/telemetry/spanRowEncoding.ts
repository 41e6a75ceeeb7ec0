import type { AttrMap, AttrValue, SpanRow } from '../../ingest/spanRow';
import { traceIdToUuid } from '../sql';

/**
 * SpanRow -> JSONEachRow lines for `spans_index` and `spans_data`. Both the embedded and the
 * remote store insert these bytes, so the two modes share one encoding.
 */

/** Attributes with their own columns in spans_index (reference ingest §2.12). */
const COLUMN_ATTRS: Record<string, string> = {
  'deployment.environment': 'deployment_environment',
  'service.name': 'service_name',
  'host.name': 'host_name',
  'db.system': 'db_system',
  'db.statement': 'db_statement',
  'db.operation': 'db_operation',
  'db.sql.table': 'db_sql_table',
  'log.severity': 'log_severity',
  'log.message': 'log_message',
  'exception.type': 'exception_type',
  'exception.message': 'exception_message',
};
const SKIP_IN_ARRAYS = new Set([...Object.keys(COLUMN_ATTRS), 'display.name']);

export function stringifyAttr(v: AttrValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}

/** `1700000000123456789n` -> `"1700000000.123456789"`; ClickHouse parses it exactly. */
function nsToDecimalSeconds(ns: bigint, digits: 6 | 9): string {
  const s = ns / 1_000_000_000n;
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').slice(0, digits);
  return `${s}.${frac}`;
}

export function encodeIndexRow(r: SpanRow): string {
  const row: Record<string, unknown> = {
    project_id: r.projectId,
    system: r.system,
    group_id: r.groupId.toString(),
    time: nsToDecimalSeconds(r.timeNs, 6),
    trace_id: traceIdToUuid(r.traceId),
    id: r.id.toString(),
    parent_id: r.parentId.toString(),
    type: r.type,
    kind: r.kind,
    name: r.name,
    event_name: r.eventName,
    display_name: r.displayName,
    duration: Math.max(0, Math.round(r.durationNs)),
    count: 1,
    status_code: r.statusCode,
    status_message: r.statusMessage,
    standalone: r.standalone,
    link_count: Math.min(255, r.linkCount),
    event_count: Math.min(255, r.eventCount),
    event_error_count: Math.min(255, r.eventErrorCount),
    event_log_count: Math.min(255, r.eventLogCount),
  };
  const allKeys: string[] = [];
  const keys: string[] = [];
  const values: string[] = [];
  for (const key of Object.keys(r.attrs)) {
    const v = r.attrs[key];
    allKeys.push(key);
    const column = COLUMN_ATTRS[key];
    if (column !== undefined) {
      if (typeof v === 'string') row[column] = v;
      continue;
    }
    if (SKIP_IN_ARRAYS.has(key) || key.startsWith('_')) continue;
    keys.push(key);
    values.push(stringifyAttr(v));
  }
  row.all_keys = allKeys;
  row.attr_keys = keys;
  row.attr_values = values;
  return JSON.stringify(row);
}

/**
 * What spans_data.data holds: everything the trace and span pages need that has no column.
 * A span's events are not repeated here: they are rows of their own, attached on read.
 */
export interface SpanData {
  standalone: boolean;
  type: string;
  system: string;
  groupId: string;
  kind: SpanRow['kind'];
  name: string;
  eventName: string;
  displayName: string;
  durationNs: number;
  statusCode: SpanRow['statusCode'];
  statusMessage: string;
  attrs: AttrMap;
  links: { traceId: string; spanId: string; attrs: AttrMap }[];
}

export function encodeDataRow(r: SpanRow): string {
  const data: SpanData = {
    standalone: r.standalone,
    type: r.type,
    system: r.system,
    groupId: r.groupId.toString(),
    kind: r.kind,
    name: r.name,
    eventName: r.eventName,
    displayName: r.displayName,
    durationNs: Math.max(0, Math.round(r.durationNs)),
    statusCode: r.statusCode,
    statusMessage: r.statusMessage,
    attrs: r.attrs,
    links: r.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId.toString(), attrs: l.attrs })),
  };
  return JSON.stringify({
    project_id: r.projectId,
    trace_id: traceIdToUuid(r.traceId),
    id: r.id.toString(),
    parent_id: r.parentId.toString(),
    time: nsToDecimalSeconds(r.timeNs, 9),
    is_event: r.eventName !== '',
    data: JSON.stringify(data),
  });
}

export function encodeSpanBatch(rows: readonly SpanRow[]): { index: Buffer; data: Buffer } {
  const index: string[] = new Array(rows.length);
  const data: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    index[i] = encodeIndexRow(rows[i]);
    data[i] = encodeDataRow(rows[i]);
  }
  return { index: Buffer.from(index.join('\n')), data: Buffer.from(data.join('\n')) };
}
