import { z } from 'zod';
import { route, type RouteErrors } from './contract';

/**
 * The answer of an export: `{}` when everything was stored, else how many records were dropped and
 * why (OTLP partial success; the counts are strings, as OTLP/JSON encodes int64).
 */
const partial = <K extends string>(field: K) =>
  z.object({
    partialSuccess: z
      .object({ [field]: z.string(), errorMessage: z.string() } as Record<K | 'errorMessage', z.ZodString>)
      .optional(),
  });
export const OtlpTracesResponse = partial('rejectedSpans');
export const OtlpLogsResponse = partial('rejectedLogRecords');
export const OtlpMetricsResponse = partial('rejectedDataPoints');

/** The Content-Encodings the HTTP ingest paths take (server: ingest/requestBody.ts). */
const COMPRESSED = 'Content-Encoding: gzip, deflate, zlib, br, zstd, snappy, x-snappy-framed or lz4';
const otlpBody = (what: string) => ({
  media: ['application/x-protobuf', 'application/json'],
  description: `An OTLP Export${what}ServiceRequest, protobuf or JSON, optionally compressed (${COMPRESSED}).`,
});
const otlpAnswer = (what: string) => ({
  media: ['application/x-protobuf', 'application/json'],
  description: `An OTLP Export${what}ServiceResponse in the format of the request.`,
});
/** The DSN comes as the `lantern-dsn` header, a bearer token, a basic-auth password, or `?dsn=`. */
const dsnQuery = z.object({ dsn: z.string().optional() });
const ingestErrors: RouteErrors = {
  400: [
    'invalid_dsn',
    'invalid_json',
    'json_too_deep',
    'invalid_body',
    'unsupported_content_type',
    'unsupported_encoding',
    'bad_compression',
  ],
  401: ['dsn_required', 'unknown_token', 'dsn_project_mismatch'],
  413: ['request_too_large'],
  429: ['queue_full'],
  503: ['storage_unavailable', 'shutting_down'],
};
const tags = ['ingest'];

/** Where telemetry is sent (reference ingest §1). Authenticated by the project DSN, not a session. */
export const ingestRoutes = {
  otlpTraces: route({
    id: 'otlpTraces',
    method: 'POST',
    path: '/v1/traces',
    query: dsnQuery,
    rawBody: otlpBody('Trace'),
    response: OtlpTracesResponse,
    rawResponse: otlpAnswer('Trace'),
    errors: ingestErrors,
    summary: 'OTLP/HTTP traces',
    auth: 'dsn',
    tags,
  }),
  otlpLogs: route({
    id: 'otlpLogs',
    method: 'POST',
    path: '/v1/logs',
    query: dsnQuery,
    rawBody: otlpBody('Logs'),
    response: OtlpLogsResponse,
    rawResponse: otlpAnswer('Logs'),
    errors: ingestErrors,
    summary: 'OTLP/HTTP logs',
    auth: 'dsn',
    tags,
  }),
  otlpMetrics: route({
    id: 'otlpMetrics',
    method: 'POST',
    path: '/v1/metrics',
    query: dsnQuery,
    rawBody: otlpBody('Metrics'),
    response: OtlpMetricsResponse,
    rawResponse: otlpAnswer('Metrics'),
    errors: ingestErrors,
    summary: 'OTLP/HTTP metrics',
    auth: 'dsn',
    tags,
  }),
  zipkinSpans: route({
    id: 'zipkinSpans',
    method: 'POST',
    path: '/api/v2/spans',
    query: dsnQuery,
    rawBody: {
      media: ['application/json'],
      description: `Zipkin v2 JSON: an array of spans, optionally compressed (${COMPRESSED}).`,
    },
    response: OtlpTracesResponse,
    status: 202,
    errors: ingestErrors,
    summary: 'Zipkin v2 spans (JSON)',
    auth: 'dsn',
    tags,
  }),
  prometheusWrite: route({
    id: 'prometheusWrite',
    method: 'POST',
    path: '/api/v1/prometheus/write',
    query: dsnQuery,
    rawBody: {
      media: ['application/x-protobuf'],
      description: 'A Prometheus remote write 1.0 WriteRequest, snappy-compressed (Content-Encoding: snappy).',
    },
    response: z.void(),
    rawResponse: { media: [], description: 'Stored (no content).' },
    status: 204,
    errors: { ...ingestErrors, 400: [...(ingestErrors[400] ?? []), 'samples_rejected'] },
    summary: 'Prometheus remote write (metrics)',
    auth: 'dsn',
    tags,
  }),
  vectorLogs: route({
    id: 'vectorLogs',
    method: 'POST',
    path: '/api/v1/vector/logs',
    query: dsnQuery,
    rawBody: {
      media: ['application/x-ndjson', 'application/json'],
      description: `Vector's http sink: newline-delimited JSON events (or a JSON array), optionally compressed (${COMPRESSED}).`,
    },
    response: OtlpLogsResponse,
    errors: ingestErrors,
    summary: "Logs from Vector's http sink",
    auth: 'dsn',
    tags,
  }),
  vectorLogsAlt: route({
    id: 'vectorLogsAlt',
    method: 'POST',
    path: '/api/v1/vector-logs',
    query: dsnQuery,
    rawBody: {
      media: ['application/x-ndjson', 'application/json'],
      description: 'The same as /api/v1/vector/logs (the other path the reference serves).',
    },
    response: OtlpLogsResponse,
    errors: ingestErrors,
    summary: "Logs from Vector's http sink (alternative path)",
    auth: 'dsn',
    tags,
  }),
};
