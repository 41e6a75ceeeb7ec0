import { describe, expect, it } from 'vitest';
import type { SpanRow } from './spanRow';
import { encodeSpans, SPANS_DATA_COLUMNS, SPANS_INDEX_COLUMNS } from './spanRowEncoding';
import { testSpanRow } from './testSpanRow';

function span(i: number, attrs: SpanRow['attrs'] = {}): SpanRow {
  return testSpanRow({
    traceId: '0af7651916cd43dd8448eb211c80319c',
    id: BigInt(i + 1),
    groupId: 42n,
    name: 'GET /users/:id',
    displayName: 'GET /users/:id',
    timeNs: 1_700_000_000_123_456_789n,
    durationNs: 1500,
    attrs: { 'service.name': 'api', 'http.status_code': 200, ...attrs },
  });
}

describe('encodeSpans', () => {
  it('writes one TSV line per row with a field per column', () => {
    const { rows, index, data } = encodeSpans([span(0), span(1, { note: 'tab\there' })]);
    expect(rows).toBe(2);
    const indexLines = index.toString().split('\n');
    expect(indexLines.pop()).toBe('');
    expect(indexLines.map((l) => l.split('\t').length)).toEqual([
      SPANS_INDEX_COLUMNS.length,
      SPANS_INDEX_COLUMNS.length,
    ]);
    expect(indexLines[0].split('\t').slice(0, 4)).toEqual(['1', 'http:api', '42', '1700000000.123456']);
    expect(indexLines[1]).toContain("['http.status_code','note']\t['200','tab\\there']");
    const dataLines = data.toString().split('\n');
    expect(dataLines.pop()).toBe('');
    expect(dataLines.map((l) => l.split('\t').length)).toEqual([SPANS_DATA_COLUMNS.length, SPANS_DATA_COLUMNS.length]);
    expect(dataLines[0].split('\t')[4]).toBe('1700000000.123456789');
  });

  it('writes the group name into spans_index.display_name and keeps the display name in spans_data', () => {
    const { index, data } = encodeSpans([
      { ...span(0), displayName: 'GET user:42', groupName: 'GET user:<num>' },
      span(1),
    ]);
    const name = SPANS_INDEX_COLUMNS.indexOf('display_name');
    expect(
      index
        .toString()
        .split('\n')
        .slice(0, 2)
        .map((l) => l.split('\t')[name]),
    ).toEqual(['GET user:<num>', 'GET /users/:id']);
    const json = data.toString().split('\n')[0].split('\t')[SPANS_DATA_COLUMNS.indexOf('data')];
    expect(JSON.parse(json)).toMatchObject({ displayName: 'GET user:42' });
  });

  it('keeps no more memory behind a chunk than its bytes, small or large', () => {
    for (const n of [1, 3, 1000]) {
      const { index, data } = encodeSpans(Array.from({ length: n }, (_, i) => span(i)));
      for (const b of [index, data])
        expect(b.buffer.byteLength).toBeLessThanOrEqual(Math.max(4096, Math.ceil(b.length / 0.75)));
    }
  });

  it('lists an attribute named like an Object.prototype member (constructor) in attr_keys', () => {
    const { index } = encodeSpans([span(0, { constructor: 'c', to_string: 't' })]);
    const line = index.toString().split('\t');
    const keys = SPANS_INDEX_COLUMNS.indexOf('attr_keys');
    expect(line[keys]).toBe("['http.status_code','constructor','to_string']");
    expect(line[keys + 1]).toBe("['200','c','t']");
  });

  it('takes the shared attributes encoded once only when the row really begins with them', () => {
    const shared = { 'service.name': 'api', 'host.name': 'h1', 'process.pid': 7 };
    const row = (attrs: SpanRow['attrs']) => ({ ...span(0), attrs });
    const plain = (attrs: SpanRow['attrs']) => encodeSpans([row(attrs), row({ ...attrs, more: 1 })]);
    const hinted = (attrs: SpanRow['attrs']) =>
      encodeSpans([row(attrs), row({ ...attrs, more: 1 })].map((r) => ({ ...r, sharedAttrs: shared })));
    // Begins with them; overrides one; lacks one; holds them in another order.
    const cases: SpanRow['attrs'][] = [
      { ...shared, 'http.route': '/x' },
      { ...shared },
      { ...shared, 'process.pid': 8, 'http.route': '/x' },
      { 'service.name': 'api', 'http.route': '/x' },
      { 'host.name': 'h1', 'service.name': 'api', 'process.pid': 7 },
    ];
    for (const attrs of cases) {
      const a = plain(attrs);
      const b = hinted(attrs);
      expect(b.index.toString()).toBe(a.index.toString());
      expect(b.data.toString()).toBe(a.data.toString());
    }
  });

  it('writes every value of a key alike, whether its forms are kept (few values) or not (many)', () => {
    // Values with every escape, under a key with few values, a key past the kept values' limit, a
    // promoted column and keys that are not listed; numbers of every kind; encoded twice (the kept
    // forms made, then taken).
    const odd = ['plain', 'tab\there', "it's", 'say "hi"', 'back\\slash', 'new\nline', '', 'é 😀', 'x'.repeat(60)];
    const numbers = [0, -0, 7, -12, 1.5, 2 ** 53 + 2, 1e21, 1e-7, NaN, Infinity];
    const rows = Array.from({ length: 300 }, (_, i) =>
      span(i, {
        few: odd[i % odd.length],
        many: `${odd[i % odd.length]}-${i}`,
        'service.name': odd[(i * 7) % odd.length],
        _hidden: odd[i % 3],
        'display.name': odd[(i + 1) % odd.length],
        num: numbers[i % numbers.length],
        flag: i % 2 === 0,
      }),
    );
    const unTsv = (f: string) =>
      f.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '0': '\0' })[c] ?? c);
    const listItems = (f: string) => [...f.slice(1, -1).matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => unTsv(m[1]));
    const keysAt = SPANS_INDEX_COLUMNS.indexOf('attr_keys');
    const serviceAt = SPANS_INDEX_COLUMNS.indexOf('service_name');
    const dataAt = SPANS_DATA_COLUMNS.indexOf('data');
    for (let pass = 0; pass < 2; pass++) {
      const { index, data } = encodeSpans(rows);
      const indexLines = index.toString().split('\n');
      const dataLines = data.toString().split('\n');
      rows.forEach((r, i) => {
        const a = r.attrs;
        const fields = indexLines[i].split('\t');
        expect(unTsv(fields[serviceAt])).toBe(a['service.name']);
        expect(listItems(fields[keysAt])).toEqual(['http.status_code', 'few', 'many', 'num', 'flag']);
        const n = a.num as number;
        const numText = Number.isInteger(n) ? n.toFixed(0) : String(n);
        expect(listItems(fields[keysAt + 1])).toEqual(['200', a.few, a.many, numText, a.flag ? 'true' : 'false']);
        const json = JSON.parse(unTsv(dataLines[i].split('\t')[dataAt])) as { attrs: unknown };
        expect(json.attrs).toEqual(JSON.parse(JSON.stringify(a)));
      });
    }
  });

  it("writes each row's own names and kinds when rows of one group id differ in them", () => {
    // Rows of one group mostly share these, and the encoder keeps their encoded parts per group id.
    const base = span(0);
    const variants: Partial<SpanRow>[] = [
      {},
      { name: 'other' },
      { displayName: 'shown' },
      { groupName: 'group <num>' },
      { eventName: 'log' },
      { type: 'log' },
      { system: 'log:error' },
      { kind: 'client' },
      { projectId: 9 },
      { standalone: true },
      { name: 'tab\tand "quote"' },
      {},
    ];
    // Each after a row without it, so that each field alone is what differs.
    const rows = variants.flatMap((v, i) => [base, { ...base, id: BigInt(i + 2), ...v }]);
    const { index, data } = encodeSpans(rows);
    const indexLines = index.toString().split('\n');
    const dataLines = data.toString().split('\n');
    const col = (name: string) => SPANS_INDEX_COLUMNS.indexOf(name);
    rows.forEach((r, i) => {
      const f = indexLines[i].split('\t');
      expect([f[col('project_id')], f[col('system')], f[col('type')], f[col('kind')]]).toEqual([
        String(r.projectId),
        r.system,
        r.type,
        r.kind,
      ]);
      expect([f[col('name')], f[col('event_name')], f[col('display_name')], f[col('standalone')]]).toEqual([
        r.name.replace('\t', '\\t'),
        r.eventName,
        r.groupName ?? r.displayName,
        r.standalone ? '1' : '0',
      ]);
      const json = JSON.parse(dataLines[i].split('\t')[SPANS_DATA_COLUMNS.indexOf('data')].replaceAll('\\\\', '\\'));
      expect(json).toMatchObject({
        standalone: r.standalone,
        type: r.type,
        system: r.system,
        groupId: '42',
        kind: r.kind,
        name: r.name,
        eventName: r.eventName,
        displayName: r.displayName,
      });
    });
  });
});
