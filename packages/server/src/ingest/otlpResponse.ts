import { createRequire } from 'node:module';

/**
 * Encodes OTLP Export*ServiceResponse messages. An empty response is zero bytes; a partial
 * success carries the rejected count and a message so the client can log what was dropped.
 */
const require = createRequire(import.meta.url);
// The generated OTLP root shipped by this pinned package (architecture §2).
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js');
const TraceResponse = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

export interface PartialSuccess {
  rejected: number;
  message: string;
}

export function encodeTraceResponse(partial: PartialSuccess | null): Uint8Array {
  if (!partial || partial.rejected === 0) return new Uint8Array(0);
  return TraceResponse.encode({
    partialSuccess: { rejectedSpans: partial.rejected, errorMessage: partial.message },
  }).finish();
}

export function traceResponseJson(partial: PartialSuccess | null): object {
  if (!partial || partial.rejected === 0) return {};
  return { partialSuccess: { rejectedSpans: String(partial.rejected), errorMessage: partial.message } };
}
