import { describe, it, expect } from 'vitest';
import { decodeTracesProto, OtlpDecodeError } from './index';
import { ExportTraceServiceRequest } from './protoRoot';

const hex = (h: string) => Buffer.from(h, 'hex');
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const PARENT = '00f067aa0ba902b7';

function encode(req: unknown): Uint8Array {
  return ExportTraceServiceRequest.encode(req as never).finish();
}

function span(over: Record<string, unknown> = {}) {
  return {
    traceId: hex(TRACE),
    spanId: hex(SPAN),
    parentSpanId: hex(PARENT),
    name: 'GET /users',
    kind: 2,
    startTimeUnixNano: '1700000000123456789',
    endTimeUnixNano: '1700000000223456789',
    ...over,
  };
}

function request(
  spans: unknown[],
  resource: unknown = { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] },
  scope: unknown = { name: 'lib', version: '1.0' },
) {
  return { resourceSpans: [{ resource, scopeSpans: [{ scope, spans }] }] };
}

describe('decodeTracesProto', () => {
  it('decodes a request encoded with the same protobufjs root', () => {
    const buf = encode(
      request([
        span({
          traceState: 'k=v',
          attributes: [
            { key: 's', value: { stringValue: 'x' } },
            { key: 'i', value: { intValue: 42 } },
            { key: 'big', value: { intValue: '9223372036854775807' } },
            { key: 'neg', value: { intValue: -3 } },
            { key: 'd', value: { doubleValue: 2.5 } },
            { key: 'b', value: { boolValue: true } },
            { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 1 }] } } },
            { key: 'kv', value: { kvlistValue: { values: [{ key: 'n', value: { intValue: 5 } }] } } },
            { key: 'bytes', value: { bytesValue: Buffer.from([1, 2]) } },
            { key: 'none', value: {} },
          ],
          events: [
            {
              timeUnixNano: '1700000000150000000',
              name: 'exception',
              attributes: [{ key: 'exception.type', value: { stringValue: 'E' } }],
            },
          ],
          links: [{ traceId: hex('11'.repeat(16)), spanId: hex('22'.repeat(8)), traceState: '', attributes: [] }],
          status: { code: 2, message: 'boom' },
        }),
      ]),
    );
    const req = decodeTracesProto(buf);
    const rs = req.resourceSpans[0];
    expect(rs.resource.attributes).toMatchObject([{ key: 'service.name', value: { stringValue: 'api' } }]);
    expect(rs.scopeSpans[0].scope).toMatchObject({ name: 'lib', version: '1.0', attributes: [] });
    const s = rs.scopeSpans[0].spans[0];
    expect(s).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: PARENT,
      traceState: 'k=v',
      name: 'GET /users',
      kind: 2,
      startTimeUnixNano: 1700000000123456789n,
      endTimeUnixNano: 1700000000223456789n,
      status: { code: 2, message: 'boom' },
    });
    const attrs = Object.fromEntries(s.attributes.map((kv) => [kv.key, kv.value]));
    expect(attrs.s).toMatchObject({ stringValue: 'x' });
    expect(attrs.i).toMatchObject({ intValue: 42 });
    expect(attrs.big).toMatchObject({ intValue: 9223372036854775807n });
    expect(attrs.neg).toMatchObject({ intValue: -3 });
    expect(attrs.d).toMatchObject({ doubleValue: 2.5 });
    expect(attrs.b).toMatchObject({ boolValue: true });
    expect(attrs.arr?.arrayValue?.values).toMatchObject([{ stringValue: 'a' }, { intValue: 1 }]);
    expect(attrs.kv?.kvlistValue?.values).toMatchObject([{ key: 'n', value: { intValue: 5 } }]);
    expect([...(attrs.bytes?.bytesValue ?? [])]).toEqual([1, 2]);
    expect(attrs.none?.stringValue ?? null).toBeNull();
    expect(s.events).toMatchObject([
      { timeUnixNano: 1700000000150000000n, name: 'exception', attributes: [{ key: 'exception.type' }] },
    ]);
    expect(s.links).toMatchObject([{ traceId: '11'.repeat(16), spanId: '22'.repeat(8), traceState: '' }]);
  });

  it('treats a missing resource and scope as empty (reference QUIRK: it crashed)', () => {
    const req = decodeTracesProto(encode({ resourceSpans: [{ scopeSpans: [{ spans: [span()] }] }] }));
    expect(req.resourceSpans[0].resource).toEqual({ attributes: [] });
    expect(req.resourceSpans[0].scopeSpans[0].scope).toEqual({ name: '', version: '', attributes: [] });
  });

  it('fills defaults for absent span fields', () => {
    const s = decodeTracesProto(encode(request([{ traceId: hex(TRACE), spanId: hex(SPAN) }]))).resourceSpans[0]
      .scopeSpans[0].spans[0];
    expect(s).toMatchObject({
      parentSpanId: '',
      name: '',
      kind: 0,
      startTimeUnixNano: 0n,
      endTimeUnixNano: 0n,
      attributes: [],
      events: [],
      links: [],
      status: { code: 0, message: '' },
    });
  });

  it('reads an all-zero parent span id as "no parent"', () => {
    const s = decodeTracesProto(encode(request([span({ parentSpanId: Buffer.alloc(8) })]))).resourceSpans[0]
      .scopeSpans[0].spans[0];
    expect(s.parentSpanId).toBe('');
  });

  it('reuses the trace id across spans and still sees a change', () => {
    const other = 'ff'.repeat(16);
    const spans = decodeTracesProto(encode(request([span(), span(), span({ traceId: hex(other) }), span()])))
      .resourceSpans[0].scopeSpans[0].spans;
    expect(spans.map((s) => s.traceId)).toEqual([TRACE, TRACE, other, TRACE]);
  });

  it('decodes an empty body as an empty request', () => {
    expect(decodeTracesProto(new Uint8Array(0))).toMatchObject({ resourceSpans: [], rejected: 0 });
  });

  it.each<[string, Uint8Array, RegExp]>([
    ['garbage bytes', Buffer.from('this is not protobuf at all'), /not a valid OTLP ExportTraceServiceRequest/],
    ['truncated message', encode(request([span()])).subarray(0, 40), /not a valid OTLP/],
    ['invalid wire type', new Uint8Array([0xff, 0xff, 0xff, 0xff]), /not a valid OTLP/],
  ])('refuses %s with OtlpDecodeError', (_name, buf, message) => {
    expect(() => decodeTracesProto(buf)).toThrow(OtlpDecodeError);
    expect(() => decodeTracesProto(buf)).toThrow(message);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['missing trace id', { traceId: undefined }, /spans\[1\]\.traceId: expected a 16-byte id .* got nothing/],
    [
      'short trace id',
      { traceId: hex('abcd') },
      /spans\[1\]\.traceId: expected a 16-byte id \(32 hex chars\), got 2 bytes/,
    ],
    ['all-zero trace id', { traceId: Buffer.alloc(16) }, /traceId: an all-zero id is invalid/],
    ['long span id', { spanId: hex('00'.repeat(9)) }, /spanId: expected a 8-byte id/],
    ['all-zero span id', { spanId: Buffer.alloc(8) }, /spanId: an all-zero id is invalid/],
    ['bad parent id length', { parentSpanId: hex('0102') }, /parentSpanId: expected a 8-byte id/],
    [
      'bad link span id',
      { links: [{ traceId: hex(TRACE), spanId: hex('01') }] },
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\]\.links\[0\]\.spanId/,
    ],
  ])('drops a span with %s, keeps the others and says why (partial success)', (_name, over, message) => {
    const req = decodeTracesProto(encode(request([span({ name: 'a' }), span(over), span({ name: 'c' })])));
    expect(req.resourceSpans[0].scopeSpans[0].spans.map((s) => s.name)).toEqual(['a', 'c']);
    expect(req.rejected).toBe(1);
    expect(req.rejectedMessage).toMatch(message);
  });

  it('refuses a non-byte argument', () => {
    expect(() => decodeTracesProto('x' as never)).toThrow(OtlpDecodeError);
  });

  it('reads int64 values of every size and sign like protobufjs with Long did', () => {
    const values = ['0', '1', '-1', '127', '128', '-129', '2147483647', '-2147483648', '4294967296'];
    values.push('9007199254740991', '-9007199254740991', '9007199254740993', '9223372036854775807');
    values.push('-9223372036854775808', '-4611686018427387904');
    const attributes = values.map((v, i) => ({ key: `i${i}`, value: { intValue: v } }));
    const s = decodeTracesProto(encode(request([span({ attributes })]))).resourceSpans[0].scopeSpans[0].spans[0];
    const read = s.attributes.map((kv) => kv.value?.intValue);
    expect(read.map(String)).toEqual(values);
    expect(read.map((v) => typeof v)).toEqual(
      values.map((v) => (Number.isSafeInteger(Number(v)) ? 'number' : 'bigint')),
    );
  });

  it('drops a span whose attribute values nest too deep, and refuses such resource attributes', () => {
    let deep: Record<string, unknown> = { stringValue: 'leaf' };
    for (let i = 0; i < 40; i++) deep = { arrayValue: { values: [deep] } };
    const attributes = [{ key: 'deep', value: deep }];
    const req = decodeTracesProto(encode(request([span({ name: 'a' }), span({ attributes }), span({ name: 'c' })])));
    expect(req.resourceSpans[0].scopeSpans[0].spans.map((x) => x.name)).toEqual(['a', 'c']);
    expect(req.rejectedMessage).toMatch(/spans\[1\]\.attributes: values nest deeper than 32 levels/);
    expect(() => decodeTracesProto(encode(request([span()], { attributes })))).toThrow(/nest deeper than 32/);
  });

  it('skips unknown fields of every wire type', () => {
    // Field 100 of each wire type (varint, fixed64, bytes, fixed32) and a group, before a valid request.
    const unknown = Buffer.from([0xa0, 0x06, 0x01, 0xa1, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0xa2, 0x06, 0x01, 0x00]);
    const more = Buffer.from([0xa5, 0x06, 1, 2, 3, 4, 0xa3, 0x06, 0x08, 0x01, 0xa4, 0x06]);
    const req = decodeTracesProto(Buffer.concat([unknown, more, encode(request([span()]))]));
    expect(req.resourceSpans[0].scopeSpans[0].spans.map((x) => x.spanId)).toEqual([SPAN]);
  });

  it('answers mutated bodies with a request or OtlpDecodeError, nothing else', () => {
    const body = Buffer.from(
      encode(request([span({ attributes: [{ key: 'k', value: { stringValue: 'v' } }] }), span()])),
    );
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 3000; i++) {
      const m = Buffer.from(body);
      for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) m[Math.floor(rand() * m.length)] = Math.floor(rand() * 256);
      const cut = rand() < 0.2 ? m.subarray(0, Math.floor(rand() * m.length)) : m;
      try {
        decodeTracesProto(cut);
      } catch (err) {
        expect(err).toBeInstanceOf(OtlpDecodeError);
      }
    }
  });

  it('reads every key right when keys of one length share their first, middle and last bytes', () => {
    const keys = ['aXcYe', 'aZcWe', 'aXcYe', 'aZcWe', 'é.key', 'é.kez', 'x', 'x', ''];
    const spans = keys.map((key, i) =>
      span({ spanId: hex((i + 1).toString(16).padStart(16, '0')), attributes: [{ key, value: { stringValue: key } }] }),
    );
    const read = decodeTracesProto(encode(request(spans))).resourceSpans[0].scopeSpans[0].spans;
    expect(read.map((x) => x.attributes[0].key)).toEqual(keys);
  });
});
