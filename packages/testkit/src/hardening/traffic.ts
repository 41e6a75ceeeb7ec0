import { mulberry32 } from '@lantern/shared';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { ExportLogsServiceRequest, ExportTraceServiceRequest } from '../../../server/src/ingest/otlp/protoRoot';
import { encodeWriteRequest, snappyLiteral, type PromSeries } from '../../../../bench/metrics/remoteWrite';

/**
 * Ingest traffic for the hardening checks (durability, overload): requests on every path, each
 * with its own trace id so what was acknowledged can be looked up in storage afterwards, and the
 * number of rows each one must leave there.
 */
export type RequestKind =
  | 'traces-proto'
  | 'traces-json'
  | 'logs-proto'
  | 'logs-json-gzip'
  | 'zipkin'
  | 'vector'
  | 'metrics-proto'
  | 'prom-write';
export const REQUEST_KINDS: RequestKind[] = [
  'traces-proto',
  'traces-json',
  'logs-proto',
  'logs-json-gzip',
  'zipkin',
  'vector',
  'metrics-proto',
];

/** The kinds whose rows are datapoints (looked up in the metric tables). */
export const isMetricsKind = (kind: RequestKind) => kind === 'metrics-proto' || kind === 'prom-write';

/**
 * The gauge that `prom-write` requests send (Prometheus remote write, no metadata: a gauge): one
 * sample per row, the request's trace id as the label PROM_TRACE_LABEL, samples of one request
 * spread over SERIES_PER_PROM_REQUEST series (so the fold has samples of one series and minute to
 * fold), so the stored count per trace id is the number of samples stored.
 */
export const PROM_ROWS_METRIC = 'hardening_prom_samples';
export const PROM_TRACE_LABEL = 'hardening_trace_id';
const SERIES_PER_PROM_REQUEST = 5;
/**
 * The delta counter that `metrics-proto` requests send: one datapoint of 1 per row, each its own
 * series, all carrying the request's trace id as the attribute METRICS_TRACE_ATTR, so the stored
 * sum per trace id is the number of datapoints stored.
 */
export const METRICS_ROWS_METRIC = 'hardening.datapoints';
export const METRICS_TRACE_ATTR = 'hardening.trace_id';

const require = createRequire(import.meta.url);
const ExportMetricsServiceRequest = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js')
  .opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;

export interface IngestRequest {
  kind: RequestKind;
  traceId: string;
  /** Rows the request stores (spans, log records, or datapoints). */
  rows: number;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const hexId = (n: bigint, len: number) => n.toString(16).padStart(len, '0');

/** `size` spans or log records under trace id `traceId` (32 hex chars). */
export function buildRequest(kind: RequestKind, traceId: string, size: number, token: string): IngestRequest {
  const now = BigInt(Date.now()) * 1_000_000n;
  const auth = { 'lantern-dsn': token };
  const resource = { attributes: [{ key: 'service.name', value: { stringValue: `hardening-${kind}` } }] };
  const spanIds = Array.from({ length: size }, (_, i) => hexId(BigInt(i + 1), 16));
  const base = { kind, traceId, rows: size };
  switch (kind) {
    case 'traces-proto':
    case 'traces-json': {
      const spans = spanIds.map((id, i) => ({
        traceId: kind === 'traces-proto' ? Buffer.from(traceId, 'hex') : traceId,
        spanId: kind === 'traces-proto' ? Buffer.from(id, 'hex') : id,
        ...(i > 0 ? { parentSpanId: kind === 'traces-proto' ? Buffer.from(spanIds[0], 'hex') : spanIds[0] } : {}),
        name: i === 0 ? 'GET /orders/:id' : `SELECT orders ${i % 3}`,
        kind: i === 0 ? 2 : 3,
        startTimeUnixNano: String(now + BigInt(i * 1000)),
        endTimeUnixNano: String(now + BigInt(i * 1000 + 500_000)),
        attributes:
          i === 0
            ? [
                { key: 'http.route', value: { stringValue: '/orders/:id' } },
                { key: 'http.method', value: { stringValue: 'GET' } },
              ]
            : [
                { key: 'db.system', value: { stringValue: 'postgresql' } },
                { key: 'db.statement', value: { stringValue: `SELECT * FROM orders WHERE id = ${i}` } },
              ],
      }));
      const req = { resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'hardening' }, spans }] }] };
      if (kind === 'traces-json')
        return {
          ...base,
          path: '/v1/traces',
          headers: { ...auth, 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify(req)),
        };
      return {
        ...base,
        path: '/v1/traces',
        headers: { ...auth, 'content-type': 'application/x-protobuf' },
        body: Buffer.from(ExportTraceServiceRequest.encode(req as never).finish()),
      };
    }
    case 'logs-proto':
    case 'logs-json-gzip': {
      const records = spanIds.map((id, i) => ({
        timeUnixNano: String(now + BigInt(i)),
        severityNumber: i % 5 === 0 ? 17 : 9,
        body: { stringValue: `order ${i} processed in ${i * 3} ms user=${i % 7}` },
        traceId: kind === 'logs-proto' ? Buffer.from(traceId, 'hex') : traceId,
        spanId: kind === 'logs-proto' ? Buffer.from(id, 'hex') : id,
        attributes: [{ key: 'order.id', value: { intValue: i } }],
      }));
      const req = { resourceLogs: [{ resource, scopeLogs: [{ scope: { name: 'hardening' }, logRecords: records }] }] };
      if (kind === 'logs-proto')
        return {
          ...base,
          path: '/v1/logs',
          headers: { ...auth, 'content-type': 'application/x-protobuf' },
          body: Buffer.from(ExportLogsServiceRequest.encode(req as never).finish()),
        };
      return {
        ...base,
        path: '/v1/logs',
        headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify(req)),
      };
    }
    case 'zipkin': {
      const spans = spanIds.map((id, i) => ({
        traceId,
        id,
        ...(i > 0 ? { parentId: spanIds[0] } : {}),
        name: i === 0 ? 'get /cart' : 'redis get',
        kind: i === 0 ? 'SERVER' : 'CLIENT',
        timestamp: Number(now / 1000n) + i,
        duration: 150,
        localEndpoint: { serviceName: `hardening-${kind}` },
        tags: i === 0 ? { 'http.route': '/cart' } : { 'db.system': 'redis' },
      }));
      return {
        ...base,
        path: '/api/v2/spans',
        headers: { ...auth, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(spans)),
      };
    }
    case 'metrics-proto': {
      const dataPoints = spanIds.map((_id, i) => ({
        attributes: [
          { key: METRICS_TRACE_ATTR, value: { stringValue: traceId } },
          { key: 'row', value: { intValue: i } },
        ],
        startTimeUnixNano: String(now - 1_000_000_000n),
        timeUnixNano: String(now),
        asInt: 1,
      }));
      const msg = ExportMetricsServiceRequest.fromObject({
        resourceMetrics: [
          {
            resource,
            scopeMetrics: [
              {
                scope: { name: 'hardening' },
                metrics: [
                  { name: METRICS_ROWS_METRIC, sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints } },
                ],
              },
            ],
          },
        ],
      });
      return {
        ...base,
        path: '/v1/metrics',
        headers: { ...auth, 'content-type': 'application/x-protobuf' },
        body: Buffer.from(ExportMetricsServiceRequest.encode(msg).finish()),
      };
    }
    case 'prom-write': {
      const nowMs = Date.now();
      const series: PromSeries[] = Array.from({ length: Math.min(size, SERIES_PER_PROM_REQUEST) }, (_, k) => ({
        labels: [
          ['__name__', PROM_ROWS_METRIC],
          [PROM_TRACE_LABEL, traceId],
          ['row', String(k)],
        ],
        samples: [],
      }));
      // Samples 1 ms apart, so a series' samples in a request are distinct and mostly in one minute.
      for (let i = 0; i < size; i++)
        series[i % series.length].samples.push({ value: 1, timestampMs: nowMs - size + i });
      return {
        ...base,
        path: '/api/v1/prometheus/write',
        headers: {
          authorization: `Bearer ${token}`,
          'content-encoding': 'snappy',
          'content-type': 'application/x-protobuf',
          'x-prometheus-remote-write-version': '0.1.0',
        },
        body: snappyLiteral(encodeWriteRequest(series)),
      };
    }
    case 'vector': {
      const lines = spanIds.map((id, i) =>
        JSON.stringify({
          message: `GET /static/${i}.js 200`,
          timestamp: new Date().toISOString(),
          service: `hardening-${kind}`,
          level: 'info',
          trace_id: traceId,
          span_id: id,
        }),
      );
      return {
        ...base,
        path: '/api/v1/vector/logs',
        headers: { ...auth, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
        body: gzipSync(lines.join('\n')),
      };
    }
  }
}

export interface SendResult {
  status: number;
  /** ms from send to answer. */
  latencyMs: number;
  retryAfter: string | null;
  body: string;
}

/** One request; resolves with status 0 when the connection failed (server gone). */
export async function send(baseUrl: string, req: IngestRequest, timeoutMs = 30_000): Promise<SendResult> {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${req.path}`, {
      method: 'POST',
      headers: req.headers,
      body: new Uint8Array(req.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.text();
    return {
      status: res.status,
      latencyMs: performance.now() - started,
      retryAfter: res.headers.get('retry-after'),
      body,
    };
  } catch {
    return { status: 0, latencyMs: performance.now() - started, retryAfter: null, body: '' };
  }
}

/** A deterministic PRNG: runs are reproducible from their seed. */
export const rng = mulberry32;

const SENTINEL = 'a5c3'.repeat(8);

/**
 * buildRequest, cheaper: uncompressed bodies are built once per kind and only the trace id bytes
 * are swapped in, so a load generator sharing the cores with the server spends little CPU on
 * making requests. Compressed bodies are built afresh.
 */
export class RequestFactory {
  private readonly templates = new Map<RequestKind, IngestRequest>();
  constructor(
    private readonly rowsPerRequest: number,
    private readonly token: string,
  ) {}

  next(kind: RequestKind, traceId: string): IngestRequest {
    if (kind === 'logs-json-gzip' || kind === 'vector')
      return buildRequest(kind, traceId, this.rowsPerRequest, this.token);
    let t = this.templates.get(kind);
    if (!t) {
      t = buildRequest(kind, SENTINEL, this.rowsPerRequest, this.token);
      this.templates.set(kind, t);
    }
    // Protobuf bodies hold the trace id as bytes, except metrics (a string attribute).
    const binary = t.headers['content-type'] === 'application/x-protobuf' && !isMetricsKind(kind);
    const from = binary ? Buffer.from(SENTINEL, 'hex') : Buffer.from(SENTINEL);
    const to = binary ? Buffer.from(traceId, 'hex') : Buffer.from(traceId);
    const body = Buffer.from(t.body);
    for (let i = body.indexOf(from); i >= 0; i = body.indexOf(from, i + from.length)) to.copy(body, i);
    return { ...t, traceId, body };
  }
}
