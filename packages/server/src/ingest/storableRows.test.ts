import { describe, expect, it } from 'vitest';
import { MAX_DURATION_NS, MAX_TIME_NS, MIN_TIME_NS } from './rowBounds';
import { storable } from './storableRows';
import type { SpanRow } from './spanRow';
import { ExportTraceServiceRequest } from './otlp/protoRoot';
import { produceOtlpTraces } from './tracesIngest';

const row = (timeNs: bigint, durationNs = 1000): SpanRow =>
  ({
    timeNs,
    durationNs,
    name: '',
    eventName: '',
    displayName: '',
    statusMessage: '',
    system: '',
    type: '',
    attrs: {},
    events: [],
    links: [],
  }) as unknown as SpanRow;

describe('storable', () => {
  it('keeps rows within the bounds untouched', () => {
    const p = { rows: [row(1_700_000_000_000_000_000n), row(MIN_TIME_NS, 0)], rejected: 0, rejectedMessage: '' };
    expect(storable(p)).toBe(p);
  });

  it.each<[string, SpanRow]>([
    ['a time past 2106', row(MAX_TIME_NS)],
    ['a time of 0', row(0n)],
    ['a time of 9 s', row(9_000_000_000n)],
    ['a huge time', row(10n ** 300n)],
    ['a duration over 100 years', row(1n, MAX_DURATION_NS * 2)],
    ['an infinite duration', row(1n, Infinity)],
  ])('drops %s and counts it', (_name, bad) => {
    const good = row(1_700_000_000_000_000_000n);
    const out = storable({ rows: [good, bad], rejected: 1, rejectedMessage: 'earlier reason' });
    expect(out).toEqual({ rows: [good], rejected: 2, rejectedMessage: 'earlier reason' });
  });
});

describe('storable: a span with its events', () => {
  const ids = (
    r: SpanRow,
    traceId: string,
    id: bigint,
    parentId = 0n,
    eventName = '',
    standalone = false,
  ): SpanRow => ({
    ...r,
    traceId,
    id,
    parentId,
    eventName,
    standalone,
  });
  it('drops the event rows of a span it drops, and counts the span once', () => {
    const ok = ids(row(1_700_000_000_000_000_000n), 't1', 1n);
    const okEvent = ids(row(1_700_000_000_000_000_000n), 't1', 11n, 1n, 'exception');
    const bad = ids(row(0n), 't1', 2n);
    const badEvents = [21n, 22n].map((i) => ids(row(1_700_000_000_000_000_000n), 't1', i, 2n, 'log'));
    const otherTrace = ids(row(1_700_000_000_000_000_000n), 't2', 21n, 2n, 'log');
    const badLog = ids(row(5n), 't3', 3n, 0n, 'log', true);
    const out = storable({
      rows: [ok, okEvent, bad, ...badEvents, otherTrace, badLog],
      rejected: 0,
      rejectedMessage: '',
    });
    expect(out.rows).toEqual([ok, okEvent, otherTrace]);
    expect(out.rejected).toBe(2);
    expect(out.rejectedMessage).toMatch(/^2 span\(s\) or record\(s\) dropped: /);
  });
});

describe('storable: lone surrogates', () => {
  it('replaces them in names and attribute keys and values, nested too', () => {
    const r = {
      ...row(1_700_000_000_000_000_000n),
      name: 'a\ud800',
      eventName: '',
      displayName: 'ok',
      statusMessage: '',
      system: 'funcs',
      type: 'funcs',
      attrs: { 'k\udc00': 'v', good: ['x\ud800y'], map: { inner: '\udfff' } },
      events: [{ name: 'e\ud800', timeNs: 1n, attrs: {} }],
      links: [],
    } as SpanRow;
    const [out] = storable({ rows: [r], rejected: 0, rejectedMessage: '' }).rows;
    expect(out.name).toBe('a\ufffd');
    expect(out.attrs).toEqual({ 'k\ufffd': 'v', good: ['x\ufffdy'], map: { inner: '\ufffd' } });
    expect(out.events[0].name).toBe('e\ufffd');
  });
});

describe('storable: OTLP traces come out well-formed', () => {
  // Lone surrogates everywhere a request carries text: protobufjs writes each as 3 bytes that are
  // not UTF-8 (the wire of a client with broken strings); JSON carries them as escapes. The
  // protobuf path's attribute maps are not walked by `storable` (Produced.attrsWellFormed): its
  // decoder must never make a lone surrogate.
  const bad = 'x\ud800y\udc00';
  const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const attrs = [
    kv(bad, bad),
    kv('arr', 'a'),
    { key: 'list', value: { arrayValue: { values: [{ stringValue: bad }] } } },
  ];
  attrs.push({ key: 'map', value: { kvlistValue: { values: [kv(bad, bad)] } } } as never);
  const span = {
    traceId: Buffer.alloc(16, 1),
    spanId: Buffer.alloc(8, 2),
    name: bad,
    kind: 2,
    startTimeUnixNano: '1764000000000000000',
    endTimeUnixNano: '1764000000001000000',
    attributes: attrs,
    events: [{ timeUnixNano: '1764000000000500000', name: bad, attributes: [kv('exception.message', bad)] }],
    links: [{ traceId: Buffer.alloc(16, 3), spanId: Buffer.alloc(8, 4), attributes: [kv(bad, bad)] }],
    status: { code: 2, message: bad },
  };
  const request = {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', bad), kv(bad, bad)] },
        scopeSpans: [{ scope: { name: bad, version: bad, attributes: [kv(bad, bad)] }, spans: [span] }],
      },
    ],
  };
  /** Every string in a row, keys included, with where it is. */
  const strings = (v: unknown, at: string, out: [string, string][]): [string, string][] => {
    if (typeof v === 'string') out.push([at, v]);
    else if (Array.isArray(v)) v.forEach((e, i) => strings(e, `${at}[${i}]`, out));
    else if (v !== null && typeof v === 'object')
      for (const [k, e] of Object.entries(v)) {
        out.push([`${at} key`, k]);
        strings(e, `${at}.${k}`, out);
      }
    return out;
  };
  const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };

  it.each(['protobuf', 'json'] as const)(
    '%s: every string of every row, attribute keys and values included',
    (format) => {
      const body =
        format === 'protobuf'
          ? Buffer.from(ExportTraceServiceRequest.encode(request as never).finish())
          : Buffer.from(
              JSON.stringify(request, (_k, v: unknown) =>
                v instanceof Uint8Array || (v as { type?: string })?.type === 'Buffer'
                  ? Buffer.from(v as Uint8Array).toString('hex')
                  : v,
              ),
            );
      const produced = produceOtlpTraces(body, format, project);
      expect(produced.attrsWellFormed).toBe(format === 'protobuf');
      const { rows } = storable(produced);
      expect(rows.length).toBe(2); // the span and its event
      // Not stored as they are: sharedAttrs is the encoder's hint (checked against attrs, value by
      // value), and groupName goes out through Buffer#write, which writes a lone surrogate as U+FFFD.
      const all = rows.flatMap(({ sharedAttrs: _hint, groupName: _name, ...r }, i) => strings(r, `row ${i}`, []));
      expect(all.some(([, t]) => t.includes('\ufffd'))).toBe(true);
      const lone = all.filter(([, t]) => !(t as unknown as { isWellFormed(): boolean }).isWellFormed());
      expect(lone.map(([at]) => at)).toEqual([]);
    },
  );
});
