import { gzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { TraceResponse, type Span } from '@lantern/shared';
import { PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';
import { createTestTracer, type Transport } from '@lantern/testkit/otlpClients';

const server = useLantern();

const api = (path: string) => fetch(`${server.lantern.baseUrl}${path}`, { headers: { cookie: server.cookie } });

async function getTrace(traceId: string, projectId = 1) {
  const res = await api(`/api/v1/tracing/${projectId}/traces/${traceId}`);
  return { status: res.status, body: await res.json() };
}

/** Sends one trace (server span -> db client span + http client span with an exception event). */
async function sendTrace(transport: Transport, service: string): Promise<string> {
  const t = createTestTracer(transport, {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: service,
  });
  // Parents are passed explicitly: no global context manager is registered in tests.
  const root = t.tracer.startSpan('GET /users/:id', {
    kind: SpanKind.SERVER,
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'url.path': '/users/42',
      'http.response.status_code': 200,
    },
  });
  const inRoot = trace.setSpan(context.active(), root);
  const db = t.tracer.startSpan(
    'SELECT users',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system': 'postgresql',
        'db.statement': 'SELECT * FROM users WHERE id = $1',
        'db.operation': 'SELECT',
        'db.sql.table': 'users',
      },
    },
    inRoot,
  );
  db.end();
  const http = t.tracer.startSpan(
    'GET',
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': 'GET', 'server.address': 'billing', 'url.full': 'http://billing/invoices' },
    },
    inRoot,
  );
  http.recordException(new Error('connection reset'));
  http.setStatus({ code: SpanStatusCode.ERROR, message: 'connection reset' });
  http.end();
  root.end();
  const traceId = root.spanContext().traceId;
  await t.shutdown();
  expect(t.results.length).toBeGreaterThan(0);
  expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
  return traceId;
}

function flatten(span: Span): Span[] {
  return [span, ...(span.children ?? []).flatMap(flatten)];
}

describe.each<Transport>(['http-proto', 'grpc', 'http-json'])('trace ingest over %s', (transport) => {
  it('stores the trace and serves it back as a tree with systems, groups and attributes', async () => {
    const traceId = await sendTrace(transport, `svc-${transport}`);
    const { status, body } = await getTrace(traceId);
    expect(status).toBe(200);
    const trace = TraceResponse.parse(body);
    expect(trace.trace.id).toBe(traceId);
    expect(trace.numSpan).toBe(3);
    const root = trace.root;
    expect(root.name).toBe('GET /users/:id');
    expect(root.kind).toBe('server');
    expect(root.system.startsWith('http:')).toBe(true);
    expect(root.attrs['service.name']).toBe(`svc-${transport}`);
    expect(root.children).toHaveLength(2);
    const all = flatten(root);
    const db = all.find((s) => s.name === 'SELECT users')!;
    expect(db.system).toBe('db:postgresql');
    expect(db.parentId).toBe(root.id);
    expect(db.attrs['db.statement']).toBe('SELECT * FROM users WHERE id = $1');
    const http = all.find((s) => s.name === 'GET' && s.kind === 'client')!;
    expect(http.statusCode).toBe('error');
    expect(http.events?.map((e) => e.attrs['exception.message'])).toContain('connection reset');
    // Group ids are stable 64-bit values sent as decimal strings.
    expect(db.groupId).toMatch(/^\d+$/);
    expect(db.groupId).not.toBe('0');

    const spanRes = await api(`/api/v1/tracing/1/traces/${traceId}/${db.id}`);
    expect(spanRes.status).toBe(200);
    expect(((await spanRes.json()) as { span: Span }).span.id).toBe(db.id);

    const search = await api(`/api/v1/traces/search?trace_id=${traceId}`);
    expect(search.status).toBe(200);
    expect(await search.json()).toMatchObject({ span: { projectId: 1, traceId, standalone: false } });
  });
});

describe('same span shape, same group', () => {
  it('gives the db spans of two traces the same group id', async () => {
    const a = TraceResponse.parse((await getTrace(await sendTrace('http-proto', 'grouping'))).body);
    const b = TraceResponse.parse((await getTrace(await sendTrace('http-proto', 'grouping'))).body);
    const dbA = flatten(a.root).find((s) => s.name === 'SELECT users')!;
    const dbB = flatten(b.root).find((s) => s.name === 'SELECT users')!;
    expect(dbA.groupId).toBe(dbB.groupId);
    expect(dbA.groupId).not.toBe(a.root.groupId);
  });
});

describe('bad input and isolation', () => {
  const post = (body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${server.lantern.baseUrl}/v1/traces`, { method: 'POST', body, headers });
  const oneSpanJson = (traceId: string) =>
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'iso' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: '1111111111111111',
                  name: 'isolated',
                  kind: 2,
                  startTimeUnixNano: String(Date.now() * 1e6),
                  endTimeUnixNano: String(Date.now() * 1e6 + 1e6),
                },
              ],
            },
          ],
        },
      ],
    });

  it('answers an unknown token with 401 and stores nothing', async () => {
    const traceId = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
    const res = await post(oneSpanJson(traceId), {
      'content-type': 'application/json',
      'lantern-dsn': `http://wrong_token_123@127.0.0.1:${server.lantern.httpPort}/1`,
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unknown_token' });
    const missing = await post(oneSpanJson(traceId), { 'content-type': 'application/json' });
    expect(missing.status).toBe(401);
    expect((await getTrace(traceId)).status).toBe(404);
  });

  it('refuses an unknown token over gRPC too, storing nothing', async () => {
    const t = createTestTracer('grpc', {
      httpUrl: server.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
      dsn: `http://wrong_token_123@127.0.0.1:${server.lantern.grpcPort}/1`,
    });
    const span = t.tracer.startSpan('refused');
    span.end();
    // The SDK's shutdown rethrows the failed export; what matters is what the exporter was told.
    await t.shutdown().catch(() => undefined);
    expect(t.results.map((r) => r.code)).toEqual([ExportResultCode.FAILED]);
    expect(String(t.results[0].error)).toMatch(/UNAUTHENTICATED|no project has this DSN token/);
    expect((await getTrace(span.spanContext().traceId)).status).toBe(404);
  });

  it('writes with a project 1 token into project 1 only', async () => {
    const traceId = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
    const res = await post(oneSpanJson(traceId), {
      'content-type': 'application/json',
      authorization: `Bearer ${PROJECT1_TOKEN}`,
    });
    expect(res.status).toBe(200);
    expect((await getTrace(traceId, 1)).status).toBe(200);
    expect((await getTrace(traceId, 2)).status).toBe(404);
  });

  it('refuses a DSN whose project id does not match its token', async () => {
    const res = await post(oneSpanJson('cccccccccccccccccccccccccccccc03'), {
      'content-type': 'application/json',
      'uptrace-dsn': `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/2`,
    });
    expect(res.status).toBe(401);
  });

  it('answers malformed protobuf, bad JSON, bad gzip and oversize bodies with 4xx and keeps serving', async () => {
    const auth = { 'lantern-dsn': server.dsn };
    const garbage = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), {
      ...auth,
      'content-type': 'application/x-protobuf',
    });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ code: 'invalid_otlp' });

    const badJson = await post('{"resourceSpans": [', { ...auth, 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 'invalid_json' });

    const badGzip = await post(Buffer.from('not gzip at all'), {
      ...auth,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(badGzip.status).toBe(400);
    expect(await badGzip.json()).toMatchObject({ code: 'bad_compression' });

    // 40 MiB of zeros gzip to ~40 KiB: refused after decompression, without inflating it all.
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024));
    const tooBig = await post(bomb, { ...auth, 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: 'request_too_large' });

    const wrongType = await post('hello', { ...auth, 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(400);

    const gz = await post(gzipSync(oneSpanJson('dddddddddddddddddddddddddddddd04')), {
      ...auth,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(gz.status).toBe(200);
    expect((await getTrace('dddddddddddddddddddddddddddddd04')).status).toBe(200);
  });
});
