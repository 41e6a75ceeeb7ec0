/**
 * The one decoded shape of an OTLP ExportTraceServiceRequest, whichever wire format it came in.
 * It stays close to the proto (nothing is merged or renamed) so normalisation has a single input;
 * the only conversions are the ones every consumer wants: ids as lowercase hex, times as bigint ns,
 * absent messages as empty values.
 */

/**
 * OTLP AnyValue, shaped like the proto's `oneof`: at most one field is set (non-null); none set
 * means "no value". This is the shape protobufjs decodes to, so the protobuf path hands its
 * attribute objects over without copying them (only int64 halves are replaced by numbers).
 */
export interface OtlpAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  /** A number when it is a safe integer, else a bigint, so int64 never loses precision. */
  intValue?: number | bigint | null;
  doubleValue?: number | null;
  arrayValue?: { values: readonly OtlpAnyValue[] } | null;
  kvlistValue?: { values: readonly OtlpKeyValue[] } | null;
  bytesValue?: Uint8Array | null;
}

/**
 * How deep arrays and kvlists may nest inside one attribute value. OTLP sets no limit; ours keeps
 * every recursive step (decode, conversion, JSON encoding) far from the stack limit.
 */
export const MAX_VALUE_DEPTH = 32;

export interface OtlpKeyValue {
  key: string;
  /** null when the sender left the value out. */
  value: OtlpAnyValue | null;
}

/** Span kinds as the proto numbers them. Unknown numbers are kept; normalisation maps them. */
export const OtlpSpanKind = {
  UNSPECIFIED: 0,
  INTERNAL: 1,
  SERVER: 2,
  CLIENT: 3,
  PRODUCER: 4,
  CONSUMER: 5,
} as const;

export const OtlpStatusCode = {
  UNSET: 0,
  OK: 1,
  ERROR: 2,
} as const;

export interface OtlpStatus {
  code: number;
  message: string;
}

export interface OtlpEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpLink {
  /** 32 lowercase hex chars. */
  traceId: string;
  /** 16 lowercase hex chars. */
  spanId: string;
  traceState: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpSpan {
  /** 32 lowercase hex chars, never all zeros. */
  traceId: string;
  /** 16 lowercase hex chars, never all zeros. */
  spanId: string;
  /** 16 lowercase hex chars, or '' for a root span (an all-zero parent also becomes ''). */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** See OtlpSpanKind. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: OtlpKeyValue[];
  events: OtlpEvent[];
  links: OtlpLink[];
  /** A span without a status message decodes as { code: UNSET, message: '' }. */
  status: OtlpStatus;
}

/** A missing `scope` decodes as an empty one (the reference crashes on it, ingest §7 item 9). */
export interface OtlpScope {
  name: string;
  version: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpScopeSpans {
  scope: OtlpScope;
  spans: OtlpSpan[];
}

/** A missing `resource` decodes as one with no attributes. */
export interface OtlpResourceSpans {
  resource: { attributes: OtlpKeyValue[] };
  scopeSpans: OtlpScopeSpans[];
}

export interface OtlpTracesRequest {
  resourceSpans: OtlpResourceSpans[];
  /** Spans dropped because they cannot be stored as sent (bad ids, bad field types). */
  rejected?: number;
  /** Why the first of them was dropped, for OTLP partial_success. */
  rejectedMessage?: string;
}
