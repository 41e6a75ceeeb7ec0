import { createRequire } from 'node:module';
import { OtlpDecodeError, type OtlpKeyValue, type PbInt64 as PbInt64Long, type PbKeyValue } from '../../ingest';

/** A 64-bit integer as protobufjs (Long) or the wire reader (bigint, otlpMetricsWire.ts) gives it. */
export type PbInt64 = PbInt64Long | bigint;
/** Attributes as protobufjs gives them (ints as Long) or as the wire reader does (in shape). */
export type PbAttributes = PbKeyValue[] | OtlpKeyValue[] | null;

/**
 * OTLP metrics on the wire: the generated protobufjs root of the pinned
 * `@opentelemetry/otlp-proto-exporter-base` (architecture §2) decodes protobuf, and its
 * `fromObject` reads OTLP/JSON (camelCase keys, int64 as string or number, enums as numbers or
 * names) into the same message objects, so one walker serves both formats.
 */
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as MetricsRoot;

export interface PbNumberDataPoint {
  attributes?: PbAttributes;
  startTimeUnixNano?: PbInt64;
  timeUnixNano?: PbInt64;
  asDouble?: number | null;
  asInt?: PbInt64;
  flags?: number | null;
}

export interface PbHistogramDataPoint {
  attributes?: PbAttributes;
  startTimeUnixNano?: PbInt64;
  timeUnixNano?: PbInt64;
  count?: PbInt64;
  sum?: number | null;
  bucketCounts?: PbInt64[] | null;
  explicitBounds?: number[] | null;
  flags?: number | null;
  min?: number | null;
  max?: number | null;
}

export interface PbBuckets {
  offset?: number | null;
  bucketCounts?: PbInt64[] | null;
}

export interface PbExpHistogramDataPoint {
  attributes?: PbAttributes;
  startTimeUnixNano?: PbInt64;
  timeUnixNano?: PbInt64;
  count?: PbInt64;
  sum?: number | null;
  scale?: number | null;
  zeroCount?: PbInt64;
  positive?: PbBuckets | null;
  negative?: PbBuckets | null;
  flags?: number | null;
  min?: number | null;
  max?: number | null;
}

export interface PbSummaryDataPoint {
  attributes?: PbAttributes;
  startTimeUnixNano?: PbInt64;
  timeUnixNano?: PbInt64;
  count?: PbInt64;
  sum?: number | null;
  quantileValues?: { quantile?: number | null; value?: number | null }[] | null;
  flags?: number | null;
}

export interface PbMetric {
  name?: string | null;
  description?: string | null;
  unit?: string | null;
  gauge?: { dataPoints?: PbNumberDataPoint[] | null } | null;
  sum?: {
    dataPoints?: PbNumberDataPoint[] | null;
    aggregationTemporality?: number | null;
    isMonotonic?: boolean | null;
  } | null;
  histogram?: { dataPoints?: PbHistogramDataPoint[] | null; aggregationTemporality?: number | null } | null;
  exponentialHistogram?: {
    dataPoints?: PbExpHistogramDataPoint[] | null;
    aggregationTemporality?: number | null;
  } | null;
  summary?: { dataPoints?: PbSummaryDataPoint[] | null } | null;
}

export interface PbMetricsRequest {
  resourceMetrics?:
    | {
        resource?: { attributes?: PbAttributes } | null;
        scopeMetrics?: { scope?: { attributes?: PbAttributes } | null; metrics?: PbMetric[] | null }[] | null;
      }[]
    | null;
}

interface MessageType<T> {
  decode(buf: Uint8Array): T;
  fromObject(obj: unknown): T;
}

interface MetricsRoot {
  opentelemetry: {
    proto: {
      collector: {
        metrics: { v1: { ExportMetricsServiceRequest: MessageType<PbMetricsRequest> } };
      };
    };
  };
}

const collector = root.opentelemetry.proto.collector.metrics.v1;

/** protobufjs' decode: the reference the wire reader (otlpMetricsWire.ts) is tested against. */
export function decodeMetricsProto(buf: Uint8Array): PbMetricsRequest {
  try {
    return collector.ExportMetricsServiceRequest.decode(buf);
  } catch (err) {
    throw new OtlpDecodeError(
      `body is not a valid OTLP ExportMetricsServiceRequest protobuf: ${(err as Error).message}`,
    );
  }
}

/**
 * The proto3 JSON mapping lets a sender use the proto field names (`resource_metrics`,
 * `data_points`, `time_unix_nano`, `as_double`) as well as lowerCamelCase; protobufjs reads only
 * the latter and skips the rest, so a snake_case body decoded to nothing. Every object key of an
 * OTLP/JSON body is a field name (attribute keys are values of `key`), so all are renamed.
 */
function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    out[k.includes('_') ? k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : k] = camelKeys(x);
  return out;
}

export function decodeMetricsJson(body: unknown): PbMetricsRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OtlpDecodeError('body: expected an ExportMetricsServiceRequest JSON object');
  }
  const unknown = Object.keys(body).filter((k) => k !== 'resourceMetrics' && k !== 'resource_metrics');
  if (unknown.length && !('resourceMetrics' in body) && !('resource_metrics' in body))
    throw new OtlpDecodeError(
      `body: expected resourceMetrics, got ${unknown.map((k) => JSON.stringify(k)).join(', ')}`,
    );
  try {
    return collector.ExportMetricsServiceRequest.fromObject(camelKeys(body));
  } catch (err) {
    // protobufjs names the offending field, e.g. "...ExportMetricsServiceRequest.resourceMetrics: object expected".
    throw new OtlpDecodeError(
      `body is not a valid OTLP/JSON ExportMetricsServiceRequest: ${(err as Error).message.replace(/^\.opentelemetry\.proto\.[a-z.0-9]+\./, '')}`,
    );
  }
}
