import { context, SpanKind, SpanStatusCode, trace, type Span as OtelSpan, type Tracer } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { createTestTracer } from '@lantern/testkit/otlpClients';

/**
 * Test fixtures for the tracing query endpoints, sent through the real OTLP/HTTP endpoint with the
 * real OpenTelemetry SDK. Every time and duration is explicit so answers are exact.
 *
 * Project 1, all spans in the minute starting at `base` (+ up to a few seconds):
 *   api      10 traces: server `GET /users/:id` (http:api), durations 10..100 ms, errors at i=3,7
 *            (status error + an exception event each); each has a db child (db:postgresql) of 2 ms.
 *   worker   5 consumer spans (messaging:kafka), 50 ms, `messaging.destination.name=orders`.
 *   billing  4 rpc server spans (rpc:billing), 20 ms, 1 error.
 *   deep     1 trace: a chain of 50 internal spans (funcs), each 1 ms shorter than its parent.
 * Project 2: 3 http server spans of service `other`.
 */
export const API_DURATIONS_MS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
export const API_ERRORS = new Set([3, 7]);
export const DEEP_DEPTH = 50;

export interface Endpoints {
  httpUrl: string;
  grpcUrl: string;
  dsn1: string;
  dsn2: string;
}

const at = (baseMs: number, offsetMs: number) => new Date(baseMs + offsetMs);

async function withTracer(ep: Endpoints, dsn: string, service: string, f: (t: Tracer) => void): Promise<void> {
  const t = createTestTracer('http-proto', { httpUrl: ep.httpUrl, grpcUrl: ep.grpcUrl, dsn, serviceName: service });
  f(t.tracer);
  await t.shutdown();
  if (!t.results.length || !t.results.every((r) => r.code === ExportResultCode.SUCCESS))
    throw new Error(`export for ${service} failed`);
}

const child = (t: Tracer, parent: OtelSpan, name: string, opts: Parameters<Tracer['startSpan']>[1]) =>
  t.startSpan(name, opts, trace.setSpan(context.active(), parent));

/** Sends all fixtures; returns trace ids by role. */
export async function sendTracingFixtures(ep: Endpoints, baseMs: number) {
  const apiTraces: string[] = [];
  let deepTrace = '';
  await withTracer(ep, ep.dsn1, 'api', (t) => {
    API_DURATIONS_MS.forEach((ms, i) => {
      const start = at(baseMs, i * 1000);
      const root = t.startSpan('GET /users/:id', {
        kind: SpanKind.SERVER,
        startTime: start,
        attributes: {
          'http.request.method': 'GET',
          'http.route': '/users/:id',
          'http.response.status_code': API_ERRORS.has(i) ? 500 : 200,
          'enduser.id': `user-${i % 3}`,
        },
      });
      const db = child(t, root, 'SELECT users', {
        kind: SpanKind.CLIENT,
        startTime: at(baseMs, i * 1000 + 1),
        attributes: {
          'db.system': 'postgresql',
          'db.statement': 'SELECT * FROM users WHERE id = $1',
          'db.operation': 'SELECT',
          'db.sql.table': 'users',
        },
      });
      db.end(at(baseMs, i * 1000 + 3));
      if (API_ERRORS.has(i)) {
        root.recordException(new Error(`boom ${i}`), at(baseMs, i * 1000 + 5));
        root.setStatus({ code: SpanStatusCode.ERROR, message: `boom ${i}` });
      }
      root.end(at(baseMs, i * 1000 + ms));
      apiTraces.push(root.spanContext().traceId);
    });
  });
  await withTracer(ep, ep.dsn1, 'worker', (t) => {
    for (let i = 0; i < 5; i++) {
      const s = t.startSpan('orders process', {
        kind: SpanKind.CONSUMER,
        startTime: at(baseMs, 20_000 + i * 1000),
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation': 'process',
          'messaging.destination.name': 'orders',
        },
      });
      s.end(at(baseMs, 20_000 + i * 1000 + 50));
    }
  });
  await withTracer(ep, ep.dsn1, 'billing', (t) => {
    for (let i = 0; i < 4; i++) {
      const s = t.startSpan('Billing/Charge', {
        kind: SpanKind.SERVER,
        startTime: at(baseMs, 30_000 + i * 1000),
        attributes: { 'rpc.system': 'grpc', 'rpc.service': 'Billing', 'rpc.method': 'Charge' },
      });
      if (i === 0) s.setStatus({ code: SpanStatusCode.ERROR, message: 'declined' });
      s.end(at(baseMs, 30_000 + i * 1000 + 20));
    }
  });
  await withTracer(ep, ep.dsn1, 'deep', (t) => {
    let parent: OtelSpan | undefined;
    const spans: OtelSpan[] = [];
    for (let d = 0; d < DEEP_DEPTH; d++) {
      const opts = { kind: SpanKind.INTERNAL, startTime: at(baseMs, 40_000 + d) };
      const s: OtelSpan = parent ? child(t, parent, `step ${d}`, opts) : t.startSpan(`step ${d}`, opts);
      spans.push(s);
      parent = s;
    }
    spans.forEach((s, d) => s.end(at(baseMs, 40_000 + 2 * DEEP_DEPTH - d)));
    deepTrace = spans[0].spanContext().traceId;
  });
  await withTracer(ep, ep.dsn2, 'other', (t) => {
    for (let i = 0; i < 3; i++) {
      const s = t.startSpan('GET /other', {
        kind: SpanKind.SERVER,
        startTime: at(baseMs, i * 1000),
        attributes: { 'http.request.method': 'GET', 'http.route': '/other' },
      });
      s.end(at(baseMs, i * 1000 + 5));
    }
  });
  return { apiTraces, deepTrace };
}
