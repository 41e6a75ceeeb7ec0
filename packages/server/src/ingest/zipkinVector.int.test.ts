import { gzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { TraceResponse, type Span } from '@lantern/shared';
import { useLantern } from '@lantern/testkit/useLantern';
import { readStoredRows, type StoredRow } from './storedRows';

/**
 * Zipkin v2 through the OpenTelemetry Zipkin exporter (a real Zipkin JSON client), and Vector's
 * http sink body (gzip NDJSON, DSN header, as the getting-started page configures it).
 */
const server = useLantern();

const getTrace = async (traceId: string) => {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, {
    headers: { cookie: server.cookie },
  });
  return { status: res.status, body: res.status === 200 ? TraceResponse.parse(await res.json()) : null };
};
const flatten = (s: Span): Span[] => [s, ...(s.children ?? []).flatMap(flatten)];

describe('Zipkin v2 spans', () => {
  it('stores spans sent by the OpenTelemetry Zipkin exporter, ids as OTLP reads them', async () => {
    const results: ExportResult[] = [];
    const exporter = new ZipkinExporter({
      url: `${server.lantern.baseUrl}/api/v2/spans`,
      headers: { 'lantern-dsn': server.dsn },
    });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'zipkin-svc' }),
      spanProcessors: [
        new SimpleSpanProcessor({
          export: (spans: ReadableSpan[], done: (r: ExportResult) => void) =>
            exporter.export(spans, (r) => {
              results.push(r);
              done(r);
            }),
          shutdown: () => exporter.shutdown(),
        }),
      ],
    });
    const tracer = provider.getTracer('zipkin-test');
    const root = tracer.startSpan('GET /orders', {
      kind: SpanKind.SERVER,
      attributes: { 'http.route': '/orders', 'http.method': 'GET' },
    });
    const child = tracer.startSpan(
      'SELECT orders',
      { kind: SpanKind.CLIENT, attributes: { 'db.system': 'mysql', 'db.statement': 'SELECT * FROM orders' } },
      trace.setSpan(context.active(), root),
    );
    child.addEvent('rows fetched');
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'deadlock' });
    child.end();
    root.end();
    await provider.shutdown();
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);

    const { status, body } = await getTrace(root.spanContext().traceId);
    expect(status).toBe(200);
    const all = flatten(body!.root);
    expect(body!.root).toMatchObject({
      id: BigInt('0x' + root.spanContext().spanId).toString(),
      name: 'GET /orders',
      kind: 'server',
      system: 'http:zipkin-svc',
    });
    const db = all.find((s) => s.name === 'SELECT orders')!;
    expect(db).toMatchObject({
      id: BigInt('0x' + child.spanContext().spanId).toString(),
      parentId: body!.root.id,
      system: 'db:mysql',
      kind: 'client',
      statusCode: 'error',
    });
    expect(db.events?.map((e) => e.name)).toContain('rows fetched');
  });

  it('takes the DSN from ?dsn= and Authorization: Bearer, refuses unknown tokens and non-arrays', async () => {
    const span = (id: string) => [
      {
        traceId: id.repeat(32),
        id: '1'.repeat(16),
        name: 'op',
        timestamp: Date.now() * 1000,
        duration: 5,
        localEndpoint: { serviceName: 'q' },
      },
    ];
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.lantern.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post(`/api/v2/spans?dsn=${encodeURIComponent(server.dsn)}`, span('a'))).status).toBe(202);
    expect((await post('/api/v2/spans', span('b'), { authorization: `Bearer ${server.dsn}` })).status).toBe(202);
    expect((await getTrace('a'.repeat(32))).status).toBe(200);
    expect((await getTrace('b'.repeat(32))).status).toBe(200);

    const unknown = await post('/api/v2/spans', span('c'), { 'uptrace-dsn': 'http://nope_nope_nope@localhost/1' });
    expect(unknown.status).toBe(401);
    expect((await getTrace('c'.repeat(32))).status).toBe(404);
    const notArray = await post('/api/v2/spans', { spans: [] }, { 'lantern-dsn': server.dsn });
    expect(notArray.status).toBe(400);
    expect(await notArray.json()).toMatchObject({ code: 'invalid_otlp' });
    const partial = await post('/api/v2/spans', [...span('d'), { traceId: 'zz', id: '1' }], {
      'lantern-dsn': server.dsn,
    });
    expect(partial.status).toBe(202);
    expect(await partial.json()).toMatchObject({
      partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringContaining('spans[1].traceId') },
    });
  });
});

describe('Vector logs', () => {
  const TRACE = '1234567890abcdef1234567890abcdef';
  const vectorBody = (lines: object[]) => gzipSync(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const send = (body: Buffer, headers: Record<string, string>) =>
    fetch(`${server.lantern.baseUrl}/api/v1/vector/logs`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', ...headers },
    });
  let stored: StoredRow[] = [];

  beforeAll(async () => {
    const now = new Date().toISOString();
    const res = await send(
      vectorBody([
        {
          message: 'GET /health 200',
          timestamp: now,
          host: 'web-1',
          source_type: 'file',
          service: 'vector-svc',
          level: 'info',
        },
        {
          message: '{"msg":"job failed","job":"export","attempt":3}',
          timestamp: now,
          service: 'vector-svc',
          level: 'error',
        },
        { message: 'correlated', service: 'vector-svc', trace_id: TRACE, span_id: 'abcdefabcdefabcd' },
      ]),
      { 'uptrace-dsn': server.dsn },
    );
    expect(res.status).toBe(200);
    // The alias path, a bad line (partial success) and refusals.
    const alias = await fetch(`${server.lantern.baseUrl}/api/v1/vector-logs`, {
      method: 'POST',
      body: '{"message":"via alias","service":"vector-svc"}\nnot json\n',
      headers: { 'content-type': 'application/json', 'uptrace-dsn': server.dsn },
    });
    expect(alias.status).toBe(200);
    expect(await alias.json()).toMatchObject({
      partialSuccess: { rejectedLogRecords: '1', errorMessage: expect.stringContaining('line 2') },
    });
    // The http sink's default framing sends a JSON array; concatenated and pretty-printed objects too.
    const array = await send(
      gzipSync(
        JSON.stringify([
          { message: 'array one', service: 'vector-svc', level: 'error' },
          { message: 'array two', service: 'vector-svc' },
        ]),
      ),
      { 'uptrace-dsn': server.dsn, 'content-type': 'application/json' },
    );
    expect(array.status).toBe(200);
    expect(await array.json()).toEqual({});
    const concat = await send(
      gzipSync(
        '{"message":"concat one","service":"vector-svc"}{"message":"concat two","service":"vector-svc"}\n' +
          JSON.stringify({ message: 'pretty', service: 'vector-svc' }, null, 2),
      ),
      { 'uptrace-dsn': server.dsn, 'content-type': 'application/json' },
    );
    expect(concat.status).toBe(200);
    expect(await concat.json()).toEqual({});
    // Rejected per record: two array elements that are not objects.
    const mixed = await send(gzipSync('[{"message":"array three","service":"vector-svc"}, 1, "x"]'), {
      'uptrace-dsn': server.dsn,
    });
    expect(mixed.status).toBe(200);
    expect(await mixed.json()).toMatchObject({ partialSuccess: { rejectedLogRecords: '2' } });
    // Nothing readable: a 400 Vector logs, not a 200 with nothing stored.
    const invalid = await send(gzipSync('not json\n[1, 2]\n{"message": broken}'), { 'uptrace-dsn': server.dsn });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('4 not readable'),
    });
    const wrongType = await send(vectorBody([{ message: 'x' }]), {
      'uptrace-dsn': server.dsn,
      'content-type': 'text/plain',
    });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { message: string }).message).toContain('framing.method = "newline_delimited"');
    const noDsn = await send(vectorBody([{ message: 'refused', service: 'vector-svc' }]), {});
    expect(noDsn.status).toBe(401);

    const corr = await getTrace(TRACE);
    expect(corr.body!.root.events?.map((e) => e.name)).toEqual(['INFO correlated']);
    await server.lantern.stop();
    stored = (await readStoredRows(server.lantern.dataDir)).filter((r) => r.service_name === 'vector-svc');
  });

  it('stores each line as a log row with its fields as attributes', () => {
    expect(stored.map((r) => r.log_message).sort()).toEqual([
      'GET /health 200',
      'array one',
      'array three',
      'array two',
      'concat one',
      'concat two',
      'correlated',
      'job failed',
      'pretty',
      'via alias',
    ]);
    expect(stored.find((r) => r.log_message === 'array one')).toMatchObject({ system: 'log:error' });
    expect(stored.find((r) => r.log_message === 'GET /health 200')).toMatchObject({
      system: 'log:info',
      standalone: true,
      attrs: { host: 'web-1', source_type: 'file', 'telemetry.sdk.name': 'vector' },
    });
    expect(stored.find((r) => r.log_message === 'job failed')).toMatchObject({
      system: 'log:error',
      attrs: { job: 'export', attempt: '3' },
    });
    expect(stored.find((r) => r.log_message === 'correlated')).toMatchObject({
      trace_id: TRACE,
      parent_id: BigInt('0xabcdefabcdefabcd').toString(),
      standalone: false,
    });
  });
});
