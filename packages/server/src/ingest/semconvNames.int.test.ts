import { SpanKind } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { SpansResponse } from '@lantern/shared';
import { exporterFor } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Spans sent with the stable semantic-convention names (`deployment.environment.name`,
 * `db.system.name`, `db.query.text`, ...) by the OpenTelemetry SDK and its OTLP/protobuf exporter
 * are found by filters on the old names, whose promoted columns they fill (audit §5).
 */
const server = useLantern();
const range = {
  time_gte: new Date(Date.now() - 30 * 60_000).toISOString(),
  time_lt: new Date(Date.now() + 30 * 60_000).toISOString(),
};

async function spans(query: string) {
  const qs = new URLSearchParams({ ...range, 'system[]': 'spans:all', query });
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/spans?${qs}`, {
    headers: { cookie: server.cookie },
  });
  expect(res.status).toBe(200);
  return SpansResponse.parse(await res.json());
}

beforeAll(async () => {
  const results: ExportResult[] = [];
  const exporter = exporterFor('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'semconv-svc', 'deployment.environment.name': 'prod' }),
    spanProcessors: [
      new SimpleSpanProcessor({
        export: (s: ReadableSpan[], done: (r: ExportResult) => void) =>
          exporter.export(s, (r) => {
            results.push(r);
            done(r);
          }),
        shutdown: () => exporter.shutdown(),
      }),
    ],
  });
  const span = provider.getTracer('semconv-test').startSpan('SELECT users', {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system.name': 'postgresql',
      'db.query.text': 'SELECT * FROM users WHERE id = 1',
      'db.operation.name': 'SELECT',
      'db.collection.name': 'users',
    },
  });
  span.end();
  await provider.shutdown();
  expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS]);
});

describe('stable semantic-convention names', () => {
  it.each([
    'where deployment.environment = "prod"',
    'where db.system = "postgresql"',
    'where db.statement exists',
    'where db.operation = "SELECT"',
    'where db.sql.table = "users"',
  ])('%s finds the span', async (where) => {
    const r = await spans(`${where} and service.name = "semconv-svc"`);
    expect(r.spans.map((s) => s.name)).toEqual(['SELECT users']);
  });

  it('the stable names stay queryable', async () => {
    const r = await spans('where db.query.text exists and deployment.environment.name = "prod"');
    expect(r.spans).toHaveLength(1);
    expect(r.spans[0].attrs).toMatchObject({
      'db.statement': 'SELECT * FROM users WHERE id = 1',
      'db.query.text': 'SELECT * FROM users WHERE id = 1',
    });
  });
});
