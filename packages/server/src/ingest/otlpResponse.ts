import { createRequire } from 'node:module';
import type { IngestSignal } from './ingestStats';

/**
 * Encodes OTLP Export*ServiceResponse messages. Full success is an empty response (zero bytes,
 * `{}` in JSON); a partial success carries the rejected count and a message so the client can log
 * what was dropped (OTLP spec: it must not retry it).
 */
const require = createRequire(import.meta.url);
/** The part of the generated OTLP root this module uses: the collectors' response types. */
interface OtlpProtoRoot {
  opentelemetry: {
    proto: { collector: Record<'trace' | 'logs' | 'metrics', { v1: Record<string, ResponseShape> }> };
  };
}
// The generated OTLP root shipped by this pinned package (architecture §2).
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as OtlpProtoRoot;
const collector = root.opentelemetry.proto.collector;

export interface PartialSuccess {
  rejected: number;
  message: string;
}

interface ResponseShape {
  encode(m: object): { finish(): Uint8Array };
}

const RESPONSES: Record<IngestSignal, { type: ResponseShape; rejectedField: string }> = {
  traces: { type: collector.trace.v1.ExportTraceServiceResponse, rejectedField: 'rejectedSpans' },
  logs: { type: collector.logs.v1.ExportLogsServiceResponse, rejectedField: 'rejectedLogRecords' },
  metrics: { type: collector.metrics.v1.ExportMetricsServiceResponse, rejectedField: 'rejectedDataPoints' },
};

export function encodeOtlpResponse(signal: IngestSignal, partial: PartialSuccess | null): Uint8Array {
  if (!partial) return new Uint8Array(0);
  const { type, rejectedField } = RESPONSES[signal];
  return type.encode({ partialSuccess: { [rejectedField]: partial.rejected, errorMessage: partial.message } }).finish();
}

export function otlpResponseJson(signal: IngestSignal, partial: PartialSuccess | null): object {
  if (!partial) return {};
  return {
    partialSuccess: { [RESPONSES[signal].rejectedField]: String(partial.rejected), errorMessage: partial.message },
  };
}
