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
});
