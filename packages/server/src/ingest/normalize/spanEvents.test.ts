import { describe, it, expect } from 'vitest';
import { normalizeTraces } from './normalizeTraces';
import { otlpRequest, otlpSpan, START_NS, TRACE_ID, type SpanSpec } from './spanFixture';

const options = { projectId: 3, groupByEnv: false, groupFuncsByService: false };

function rowsFor(events: SpanSpec['events'], spanAttrs = {}) {
  return normalizeTraces(
    otlpRequest([
      otlpSpan({ name: 'GET /x', kind: 2, status: { code: 2, message: 'failed' }, attrs: spanAttrs, events }),
    ]),
    options,
  );
}

describe('span events → rows (reference ingest §2.8)', () => {
  const events: NonNullable<SpanSpec['events']> = [
    { name: 'exception', attrs: { 'exception.type': 'Error', 'exception.message': 'boom 1' } },
    { name: 'log', attrs: { 'log.message': 'hello', 'log.severity': 'debug' } },
    { name: 'log', attrs: { 'log.message': 'bad', level: 'fatal' } },
    { name: 'message', attrs: { 'message.type': 'RECEIVED' } },
    { name: 'cache.miss', time: 0n, attrs: { key: 'k1' } },
  ];
  const rows = rowsFor(events, { 'http.route': '/x', shared: 'span', key: 'span-key' });
  const [span, ...eventRows] = rows;

  it('emits the span, then one row per event', () => {
    expect(rows).toHaveLength(6);
    expect(span.eventName).toBe('');
    expect(eventRows.map((r) => r.eventName)).toEqual(['exception', 'log', 'log', 'message', 'cache.miss']);
  });

  it('counts events on the span row', () => {
    expect([span.eventCount, span.eventErrorCount, span.eventLogCount, span.linkCount]).toEqual([5, 2, 3, 0]);
  });

  it('keeps the events on the span row with their own attributes only', () => {
    expect(span.events.map((e) => e.name)).toEqual(events.map((e) => e.name));
    expect(span.events[0].attrs).toEqual({ 'exception.type': 'Error', 'exception.message': 'boom 1' });
  });

  it('hangs event rows off the span with their own ids', () => {
    for (const r of eventRows) {
      expect(r.traceId).toBe(TRACE_ID);
      expect(r.parentId).toBe(span.id);
      expect(r.id).not.toBe(span.id);
      expect(r.projectId).toBe(3);
      expect(r.durationNs).toBe(0);
      expect([r.name, r.kind, r.statusCode]).toEqual(['GET /x', 'server', 'error']);
      expect([r.eventCount, r.events.length, r.links.length]).toEqual([0, 0, 0]);
    }
    expect(new Set(eventRows.map((r) => r.id)).size).toBe(eventRows.length);
  });

  it('derives event ids deterministically (retried exports give the same rows)', () => {
    expect(rowsFor(events).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('gives each row its system, type and display name', () => {
    expect(eventRows.map((r) => [r.type, r.system, r.displayName])).toEqual([
      ['log', 'log:error', 'Error: boom 1'],
      ['log', 'log:debug', 'DEBUG hello'],
      ['log', 'log:fatal', 'FATAL bad'],
      ['message', 'message:unknown', 'GET /x RECEIVED'],
      // QUIRK fixed: the reference leaves this empty.
      ['other-events', 'other-events', 'cache.miss'],
    ]);
  });

  it('merges the span attributes under the event ones', () => {
    const other = eventRows[4];
    expect(other.attrs.key).toBe('k1');
    expect(other.attrs.shared).toBe('span');
    expect(other.attrs['service.name']).toBe('api');
  });

  it('applies aliases to event attributes', () => {
    expect(eventRows[2].attrs['log.severity']).toBe('FATAL');
    expect(eventRows[2].attrs.level).toBeUndefined();
  });

  it('uses the event time, or the span start when the event has none', () => {
    expect(eventRows[0].timeNs).toBe(START_NS + 1000n);
    expect(eventRows[4].timeNs).toBe(START_NS);
  });

  it('gives an event with a time no row can have (1 ns, the year 3000) the span start, in the row and the span', () => {
    const [host, early, late] = rowsFor([
      { name: 'exception', time: 1n, attrs: { 'exception.type': 'E' } },
      { name: 'cache.miss', time: 32_503_680_000_000_000_000n, attrs: {} },
    ]);
    expect([early.timeNs, late.timeNs]).toEqual([START_NS, START_NS]);
    expect(host.events.map((e) => e.timeNs)).toEqual([START_NS, START_NS]);
  });

  it('groups exceptions by type and message words, not by variables', () => {
    const a = rowsFor([
      { name: 'exception', attrs: { 'exception.type': 'E', 'exception.message': 'user 1 missing' } },
    ])[1];
    const b = rowsFor([{ name: 'error', attrs: { 'exception.type': 'E', 'exception.message': 'user 2 missing' } }])[1];
    const c = rowsFor([
      { name: 'exception', attrs: { 'exception.type': 'E', 'exception.message': 'user 2 expired' } },
    ])[1];
    expect(b.eventName).toBe('exception');
    expect(a.groupId).toBe(b.groupId);
    expect(a.groupId).not.toBe(c.groupId);
  });

  it('groups logs by severity and message words', () => {
    const log = (message: string, severity = 'info') =>
      rowsFor([{ name: 'log', attrs: { 'log.message': message, 'log.severity': severity } }])[1].groupId;
    expect(log('took 10ms to load')).toBe(log('took 99ms to load'));
    expect(log('took 10ms to load')).not.toBe(log('took 10ms to save'));
    expect(log('took 10ms to load')).not.toBe(log('took 10ms to load', 'warn'));
  });

  it('gives a nameless event a name so the row stays an event', () => {
    expect(rowsFor([{ name: '', attrs: {} }])[1].eventName).toBe('event');
  });

  it('truncates event names to 80 bytes', () => {
    expect(rowsFor([{ name: 'e'.repeat(100) }])[1].eventName).toBe('e'.repeat(77) + '...');
  });
});
