import { createRequire } from 'node:module';

/**
 * The OTLP request shape the benchmark builds, in the form protobufjs' generated encoder takes
 * (camelCase fields, ids as bytes, 64-bit times as `{low, high}`), and the encoder itself: the same
 * generated root the server decodes with (`@opentelemetry/otlp-proto-exporter-base@0.51.1`).
 */
export interface PbFixed64 {
  low: number;
  high: number;
  unsigned: true;
}

export type PbValue =
  | { stringValue: string }
  | { intValue: number }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: PbValue[] } };

export interface PbAttr {
  key: string;
  value: PbValue;
}

export interface PbEvent {
  timeUnixNano: PbFixed64;
  name: string;
  attributes: PbAttr[];
}

export interface PbSpan {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: PbFixed64;
  endTimeUnixNano: PbFixed64;
  attributes: PbAttr[];
  events: PbEvent[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
}

export interface PbResourceSpans {
  resource: { attributes: PbAttr[] };
  scopeSpans: { scope: { name: string; version: string }; spans: PbSpan[] }[];
}

export interface PbTracesRequest {
  resourceSpans: PbResourceSpans[];
}

interface Encoder {
  encode(message: PbTracesRequest): { finish(): Uint8Array };
}

const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Encoder } } } } };
};

export function encodeTracesRequest(request: PbTracesRequest): Uint8Array {
  return root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.encode(request).finish();
}

export function fixed64(ns: bigint): PbFixed64 {
  return { low: Number(ns & 0xffffffffn), high: Number(ns >> 32n), unsigned: true };
}

export function str(key: string, value: string): PbAttr {
  return { key, value: { stringValue: value } };
}

export function int(key: string, value: number): PbAttr {
  return { key, value: { intValue: value } };
}

export function dbl(key: string, value: number): PbAttr {
  return { key, value: { doubleValue: value } };
}

export function bool(key: string, value: boolean): PbAttr {
  return { key, value: { boolValue: value } };
}
