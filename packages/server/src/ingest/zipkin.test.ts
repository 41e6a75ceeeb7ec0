import { describe, expect, it } from 'vitest';
import { normalizeTraces } from './normalize';
import { OtlpDecodeError } from './otlp';
import { zipkinToOtlp } from './zipkin';

const NOW = 1_700_000_000_000_000_000n;
const OPTS = { projectId: 1, groupByEnv: false, groupFuncsByService: false };

const SPAN = {
  traceId: '5af7183fb1d4cf5f',
  id: '352bff9a74ca9ad2',
  parentId: '6b221d5bc9e6496c',
  name: 'get /api',
  kind: 'SERVER',
  timestamp: 1700000000123456,
  duration: 207000,
  localEndpoint: { serviceName: 'backend', ipv4: '192.168.99.1', port: 3306 },
  remoteEndpoint: { serviceName: 'frontend', ipv6: '::1', port: 54321 },
  annotations: [{ timestamp: 1700000000200000, value: 'wr' }],
  tags: { 'http.route': '/api', 'http.method': 'GET', 'peer.service': 'from-tag' },
};

describe('zipkinToOtlp', () => {
  it('maps a Zipkin span (ids big-endian, 64-bit trace id in the low bytes, µs → ns)', () => {
    const req = zipkinToOtlp([SPAN], NOW);
    const span = req.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span).toMatchObject({
      traceId: '00000000000000005af7183fb1d4cf5f',
      spanId: '352bff9a74ca9ad2',
      parentSpanId: '6b221d5bc9e6496c',
      kind: 2,
      startTimeUnixNano: 1700000000123456000n,
      endTimeUnixNano: 1700000000330456000n,
      events: [{ name: 'wr', timeUnixNano: 1700000000200000000n }],
      status: { code: 0 },
    });
    const rows = normalizeTraces(req, OPTS);
    // Same hex id, same number as over OTLP (the reference read Zipkin ids little-endian).
    expect(rows[0].id).toBe(0x352bff9a74ca9ad2n);
    expect(rows[0].parentId).toBe(0x6b221d5bc9e6496cn);
    expect(rows[0].system).toBe('http:backend');
    expect(rows[0].attrs).toMatchObject({
      'service.name': 'backend',
      'net.host.ip': '192.168.99.1',
      'net.host.port': 3306,
      'peer.service': 'from-tag', // a tag wins over the endpoint
      'net.peer.ip': '::1',
      'net.peer.port': 54321,
    });
    expect(rows[1]).toMatchObject({ eventName: 'wr', parentId: rows[0].id, system: 'other-events' });
  });

  it.each<[string, string, number]>([
    ['CLIENT', 'client', 3],
    ['producer', 'producer', 4],
    ['CONSUMER', 'consumer', 5],
    ['', 'internal', 1],
    ['WEIRD', 'internal', 1],
  ])('maps kind %s', (kind, rowKind, otlpKind) => {
    const req = zipkinToOtlp([{ ...SPAN, kind }], NOW);
    expect(req.resourceSpans[0].scopeSpans[0].spans[0].kind).toBe(otlpKind);
    expect(normalizeTraces(req, OPTS)[0].kind).toBe(rowKind);
  });

  it("puts an HTTP span tagged the Zipkin way (http.path, no route) in its service's http system", () => {
    const tags = { 'http.method': 'GET', 'http.path': '/api/orders/42' };
    const rows = normalizeTraces(zipkinToOtlp([{ ...SPAN, annotations: [], tags }], NOW), OPTS);
    expect(rows[0]).toMatchObject({ type: 'http', system: 'http:backend' });
  });

  it('marks a span with an error tag as failed', () => {
    const rows = normalizeTraces(zipkinToOtlp([{ ...SPAN, tags: { error: 'connection refused' } }], NOW), OPTS);
    expect(rows[0]).toMatchObject({ statusCode: 'error', statusMessage: 'connection refused' });
  });

  it('accepts string timestamps and a missing timestamp (receive time)', () => {
    const req = zipkinToOtlp(
      [
        { ...SPAN, timestamp: '1700000000000001', duration: '5' },
        { ...SPAN, timestamp: undefined, duration: undefined },
      ],
      NOW,
    );
    const [a, b] = req.resourceSpans[0].scopeSpans[0].spans;
    expect([a.startTimeUnixNano, a.endTimeUnixNano]).toEqual([1700000000000001000n, 1700000000000006000n]);
    expect([b.startTimeUnixNano, b.endTimeUnixNano]).toEqual([NOW, NOW]);
  });

  it.each<[string, unknown, RegExp]>([
    ['a bad trace id', { ...SPAN, traceId: 'xyz' }, /spans\[1\]\.traceId: expected a hex string/],
    ['a span id too long', { ...SPAN, id: 'abc0123456789abcd' }, /spans\[1\]\.id: expected at most 16 hex chars/],
    ['an all-zero id', { ...SPAN, id: '0000000000000000' }, /all-zero/],
    ['a name that is not a string', { ...SPAN, name: 5 }, /spans\[1\]\.name/],
    ['a negative timestamp', { ...SPAN, timestamp: -1 }, /timestamp/],
    ['not an object', 'span', /spans\[1\]\.span: expected an object/],
  ])('drops a span with %s and counts it', (_name, bad, message) => {
    const req = zipkinToOtlp([SPAN, bad, SPAN], NOW);
    expect(req.resourceSpans[0].scopeSpans[0].spans).toHaveLength(2);
    expect(req.rejected).toBe(1);
    expect(req.rejectedMessage).toMatch(message);
  });

  it('left-pads short ids with zeros, as Zipkin does', () => {
    const req = zipkinToOtlp([{ ...SPAN, traceId: 'ABC', id: 'a1', parentId: 'f' }], NOW);
    const [span] = req.resourceSpans[0].scopeSpans[0].spans;
    expect(req.rejected).toBe(0);
    expect([span.traceId, span.spanId, span.parentSpanId]).toEqual([
      '00000000000000000000000000000abc',
      '00000000000000a1',
      '000000000000000f',
    ]);
  });

  it('refuses a body that is not an array', () => {
    expect(() => zipkinToOtlp({ spans: [] }, NOW)).toThrow(OtlpDecodeError);
  });
});
