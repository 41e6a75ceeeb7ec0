import type { SpanKind, StatusCode } from '@lantern/shared';

/** An attribute value after OTLP AnyValue conversion (reference ingest §2.3). */
export type AttrValue = string | number | boolean | AttrValue[] | { [key: string]: AttrValue } | null;
export type AttrMap = Record<string, AttrValue>;

export interface SpanEventData {
  name: string;
  /** Unix time in nanoseconds. */
  timeNs: bigint;
  attrs: AttrMap;
}

export interface SpanLinkData {
  /** 32 lowercase hex chars. */
  traceId: string;
  spanId: bigint;
  attrs: AttrMap;
}

/**
 * One stored row: a span, or an event split out of a span (log, exception, message, other),
 * or a standalone log record. This is what normalisation produces and what storage writes.
 * A row is an event when `eventName` is non-empty.
 */
export interface SpanRow {
  projectId: number;
  /** 32 lowercase hex chars; all zeros for a standalone row without a trace. */
  traceId: string;
  /** 64-bit span id (events get their own generated id). */
  id: bigint;
  /** 0n for a root span. For an event row: the id of the span it came from. */
  parentId: bigint;
  standalone: boolean;
  /** The system prefix: 'http', 'db', 'rpc', 'messaging', 'funcs', 'log', ... */
  type: string;
  /** e.g. 'http:api', 'db:postgresql', 'log:error'. */
  system: string;
  /** 64-bit group id; spans with the same shape share it. */
  groupId: bigint;
  kind: SpanKind;
  name: string;
  eventName: string;
  displayName: string;
  /**
   * The name of the row's group: its template, e.g. `payment <num> declined` where the row shows
   * `payment 4407 declined`. spans_index stores it as `display_name` (what groups, rollups and
   * queries read); spans_data keeps `displayName`, what the row itself shows. Absent: displayName.
   */
  groupName?: string;
  /** Unix start time in nanoseconds. */
  timeNs: bigint;
  /** Duration in nanoseconds (0 for events). */
  durationNs: number;
  statusCode: StatusCode;
  statusMessage: string;
  /** All attributes: resource, then scope, then span (later wins), keys cleaned. */
  attrs: AttrMap;
  /**
   * A hint for the encoder, not stored: attributes `attrs` probably begins with (the resource's and
   * scope's, the same object for every row of a ResourceSpans), so their encoded form is made once.
   * The encoder checks that `attrs` really begins with them and encodes everything when not.
   */
  sharedAttrs?: AttrMap;
  /** The span's own events (kept on the span for the trace page; also split into event rows). */
  events: SpanEventData[];
  links: SpanLinkData[];
  linkCount: number;
  eventCount: number;
  eventErrorCount: number;
  eventLogCount: number;
}
