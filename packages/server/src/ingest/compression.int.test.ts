import http2 from 'node:http2';
import { describe, expect, it } from 'vitest';
import { TraceResponse, type Span } from '@lantern/shared';
import { PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';
import { buildRequest, type IngestRequest } from '@lantern/testkit/hardening/traffic';
import { BODY_ENCODINGS, contentEncodingOf, encodeBody, type BodyEncoding } from '@lantern/testkit/compression';

/**
 * Compressed OTLP/HTTP bodies in every Content-Encoding the OpenTelemetry Collector's exporters
 * send (gzip, deflate, zlib, zstd, snappy block and framed, x-snappy-framed, lz4) and br, made
 * by real encoders: stored and served back; bombs refused with 413 and corrupt bodies with 400.
 */
const MAX_BODY = 4 * 1024 * 1024;
const server = useLantern({ env: { LANTERN_INGEST_MAX_BODY_BYTES: String(MAX_BODY) } });

const traceIdFor = (i: number, salt: string) => (i + 1).toString(16).padStart(4, '0') + salt.padStart(28, '0');

async function post(req: IngestRequest, enc: string, body: Buffer) {
  const res = await fetch(`${server.lantern.baseUrl}${req.path}`, {
    method: 'POST',
    headers: { ...req.headers, 'content-encoding': enc },
    body: new Uint8Array(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.includes('json') ? ((await res.json()) as Record<string, unknown>) : null };
}

async function getTrace(traceId: string) {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, {
    headers: { cookie: server.cookie },
  });
  expect(res.status).toBe(200);
  return TraceResponse.parse(await res.json());
}

const flatten = (s: Span): Span[] => [s, ...(s.children ?? []).flatMap(flatten)];

describe('compressed OTLP/HTTP bodies', () => {
  it.each(BODY_ENCODINGS.map((e, i) => [e, i] as [BodyEncoding, number]))(
    'stores a protobuf trace sent as %s and serves it back',
    async (enc, i) => {
      const req = buildRequest('traces-proto', traceIdFor(i, 'a1'), 5, PROJECT1_TOKEN);
      const compressed = await encodeBody(enc, req.body);
      expect(compressed.equals(req.body)).toBe(false);
      const res = await post(req, contentEncodingOf(enc), compressed);
      expect(res.status).toBe(200);
      const trace = await getTrace(req.traceId);
      expect(trace.numSpan).toBe(5);
      expect(flatten(trace.root).map((s) => s.name)).toContain('GET /orders/:id');
      expect(trace.root.attrs['service.name']).toBe('hardening-traces-proto');
    },
  );

  it.each(['zstd', 'snappy', 'lz4'] as BodyEncoding[])('stores protobuf logs sent as %s', async (enc) => {
    const req = buildRequest('logs-proto', traceIdFor(BODY_ENCODINGS.indexOf(enc), 'b2'), 4, PROJECT1_TOKEN);
    const res = await post(req, enc, await encodeBody(enc, req.body));
    expect(res.status).toBe(200);
    const trace = await getTrace(req.traceId);
    expect((trace.root.events ?? []).filter((e) => e.system?.startsWith('log:'))).toHaveLength(4);
  });

  it('takes zstd on the Zipkin path too', async () => {
    const req = buildRequest('zipkin', traceIdFor(0, 'c3'), 3, PROJECT1_TOKEN);
    const res = await post(req, 'zstd', await encodeBody('zstd', req.body));
    expect(res.status).toBe(202);
    expect((await getTrace(req.traceId)).numSpan).toBe(3);
  });

  it.each(BODY_ENCODINGS.filter((e) => e !== 'br'))('refuses a %s bomb with 413 request_too_large', async (enc) => {
    // twice the limit of zeros, a few KiB to a few hundred KiB compressed
    const req = buildRequest('traces-proto', traceIdFor(0, 'd4'), 1, PROJECT1_TOKEN);
    const bomb = await encodeBody(enc, Buffer.alloc(2 * MAX_BODY));
    expect(bomb.length).toBeLessThan(MAX_BODY / 8);
    const res = await post(req, contentEncodingOf(enc), bomb);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'request_too_large', message: expect.stringContaining(`${MAX_BODY}`) });
  });

  it.each(BODY_ENCODINGS)('refuses a corrupt %s body with 400 bad_compression', async (enc) => {
    const req = buildRequest('traces-proto', traceIdFor(0, 'e5'), 20, PROJECT1_TOKEN);
    const good = await encodeBody(enc, req.body);
    // cut short: every format notices a missing end (zstd/lz4 end marks, snappy lengths, zlib trailers)
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    const garbage = Buffer.from('this is not compressed data at all, only text \u00ff\u00fe');
    for (const body of [truncated, garbage]) {
      const res = await post(req, contentEncodingOf(enc), body);
      expect(res.status, `${enc} ${body.length}`).toBe(400);
      expect(res.body).toMatchObject({
        code: 'bad_compression',
        message: expect.stringContaining('cannot decompress'),
      });
    }
  });

  it('names the supported encodings when refusing another', async () => {
    const req = buildRequest('traces-proto', traceIdFor(0, 'f6'), 1, PROJECT1_TOKEN);
    const res = await post(req, 'compress', req.body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'unsupported_encoding',
      message: expect.stringContaining('gzip, x-gzip, deflate, zlib, br, zstd, snappy, x-snappy-framed, lz4'),
    });
    // and the server still serves
    const ok = buildRequest('traces-proto', traceIdFor(1, 'f6'), 1, PROJECT1_TOKEN);
    expect((await post(ok, 'identity', ok.body)).status).toBe(200);
  });
});

/** One unary gRPC call by hand (grpc-js clients cannot send zstd or snappy): headers and trailers as received. */
function rawGrpcExport(encoding: string, message: Buffer, compressed: boolean) {
  return new Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders }>((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${server.lantern.grpcPort}`);
    session.on('error', reject);
    const frame = Buffer.alloc(5 + message.length);
    frame[0] = compressed ? 1 : 0;
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    const req = session.request({
      ':method': 'POST',
      ':path': '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-encoding': encoding,
      'lantern-dsn': PROJECT1_TOKEN,
    });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    req.on('response', (h) => (headers = h));
    req.on('trailers', (t) => (trailers = t));
    req.on('data', () => {});
    req.on('error', reject);
    req.on('end', () => {
      session.close();
      resolve({ headers, trailers });
    });
    req.end(frame);
  });
}

describe('compressed OTLP/gRPC messages', () => {
  it.each(['zstd', 'snappy'] as BodyEncoding[])(
    'answers a message compressed with %s UNIMPLEMENTED and says which encodings it takes',
    async (enc) => {
      const req = buildRequest('traces-proto', traceIdFor(0, '97'), 2, PROJECT1_TOKEN);
      const { headers, trailers } = await rawGrpcExport(enc, await encodeBody(enc, req.body), true);
      const status = trailers['grpc-status'] ?? headers['grpc-status'];
      expect(status).toBe(String(12)); // UNIMPLEMENTED
      expect(decodeURIComponent(String(trailers['grpc-message']))).toContain(`unsupported encoding "${enc}"`);
      expect(headers['grpc-accept-encoding']).toBe('identity,deflate,gzip');
    },
  );

  it('stores a gzip-compressed message sent the same way', async () => {
    const req = buildRequest('traces-proto', traceIdFor(1, '97'), 2, PROJECT1_TOKEN);
    const { headers, trailers } = await rawGrpcExport('gzip', await encodeBody('gzip', req.body), true);
    expect(trailers['grpc-status']).toBe('0');
    expect(headers['grpc-accept-encoding']).toBe('identity,deflate,gzip');
    expect((await getTrace(req.traceId)).numSpan).toBe(2);
  });
});
