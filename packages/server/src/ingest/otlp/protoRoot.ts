import { createRequire } from 'node:module';

/**
 * The generated protobufjs OTLP root shipped by the pinned `@opentelemetry/otlp-proto-exporter-base`
 * (architecture §2: static code, measured fastest here). Its .d.ts only says `Root`, so the few
 * message shapes we read are typed below. Fields the proto leaves unset decode as `null` (the root
 * was generated with null defaults), so every field is optional here.
 */
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as ProtoRoot;

/** protobufjs' Long (installed, so 64-bit fields decode to it); a plain number if Long is absent. */
export interface PbLong {
  low: number;
  high: number;
  unsigned?: boolean;
}
export type PbInt64 = PbLong | number | string | null | undefined;

export interface PbAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  /** Replaced in place by a number or bigint after decoding (decodeProto fixKeyValues). */
  intValue?: PbInt64 | bigint;
  doubleValue?: number | null;
  arrayValue?: { values?: PbAnyValue[] | null } | null;
  kvlistValue?: { values?: PbKeyValue[] | null } | null;
  bytesValue?: Uint8Array | null;
}

export interface PbKeyValue {
  key?: string | null;
  value?: PbAnyValue | null;
}

export interface PbEvent {
  timeUnixNano?: PbInt64;
  name?: string | null;
  attributes?: PbKeyValue[] | null;
}

export interface PbLink {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  traceState?: string | null;
  attributes?: PbKeyValue[] | null;
}

export interface PbSpan {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  traceState?: string | null;
  parentSpanId?: Uint8Array | null;
  name?: string | null;
  kind?: number | null;
  startTimeUnixNano?: PbInt64;
  endTimeUnixNano?: PbInt64;
  attributes?: PbKeyValue[] | null;
  events?: PbEvent[] | null;
  links?: PbLink[] | null;
  status?: { code?: number | null; message?: string | null } | null;
}

export interface PbTracesRequest {
  resourceSpans?:
    | {
        resource?: { attributes?: PbKeyValue[] | null } | null;
        scopeSpans?:
          | {
              scope?: { name?: string | null; version?: string | null; attributes?: PbKeyValue[] | null } | null;
              spans?: PbSpan[] | null;
            }[]
          | null;
      }[]
    | null;
}

export interface PbLogRecord {
  timeUnixNano?: PbInt64;
  observedTimeUnixNano?: PbInt64;
  severityNumber?: number | null;
  severityText?: string | null;
  body?: PbAnyValue | null;
  attributes?: PbKeyValue[] | null;
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
}

export interface PbLogsRequest {
  resourceLogs?:
    | {
        resource?: { attributes?: PbKeyValue[] | null } | null;
        scopeLogs?:
          | {
              scope?: { name?: string | null; version?: string | null; attributes?: PbKeyValue[] | null } | null;
              logRecords?: PbLogRecord[] | null;
            }[]
          | null;
      }[]
    | null;
}

interface ProtoWriter {
  finish(): Uint8Array;
}

export interface ProtoMessageType<T> {
  decode(buf: Uint8Array): T;
  encode(message: T): ProtoWriter;
}

interface ProtoRoot {
  opentelemetry: {
    proto: {
      collector: {
        trace: { v1: { ExportTraceServiceRequest: ProtoMessageType<PbTracesRequest> } };
        logs: { v1: { ExportLogsServiceRequest: ProtoMessageType<PbLogsRequest> } };
      };
    };
  };
}

export const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
export const ExportLogsServiceRequest = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
