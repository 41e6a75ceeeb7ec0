import { describe, expect, it } from 'vitest';
import { MAX_DURATION_NS, MAX_TIME_NS, MIN_TIME_NS } from './rowBounds';
import { storable } from './storableRows';
import type { SpanRow } from './spanRow';

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
