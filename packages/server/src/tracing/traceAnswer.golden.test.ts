import { describe, expect, it } from 'vitest';
import type { SpanData, TelemetryStore } from '../storage/telemetry';
import { createTracingStore } from './tracing.store';
import { buildTraceTree } from './traceTree';

/**
 * The trace endpoint's answer, from stored rows to JSON text, pinned by a reviewed golden file
 * (`__golden__/traceAnswer.golden.txt`): a change to how rows are read or the tree is built must
 * leave the answer the same (or show up as a diff there). The rows are what `spans_data` returns,
 * in its order (by time), with the cases a real trace has: re-sent (duplicate) spans, spans and
 * events whose parent is missing, two roots, a cycle, ties in time, links, standalone rows,
 * attributes of every JSON type, whole and fractional seconds.
 */
const TRACE = 'ab'.repeat(16);
const UUID = `${TRACE.slice(0, 8)}-${TRACE.slice(8, 12)}-${TRACE.slice(12, 16)}-${TRACE.slice(16, 20)}-${TRACE.slice(20)}`;
const T0 = 1_700_000_000_000_000_000n;

interface Fixture {
  id: string;
  parent?: string;
  /** ns after T0 */
  at: number;
  duration?: number;
  event?: boolean;
  data?: Partial<SpanData>;
}

function storedRows(fixtures: readonly Fixture[]) {
  return fixtures.map((f) => {
    const data: SpanData = {
      standalone: false,
      type: 'funcs',
      system: 'funcs:app',
      groupId: String(1000 + Number(f.id.replace(/\D/g, '') || 0)),
      kind: 'internal',
      name: `op ${f.id}`,
      eventName: f.event ? 'log' : '',
      displayName: `do ${f.id}`,
      durationNs: f.duration ?? 0,
      statusCode: 'unset',
      statusMessage: '',
      attrs: { 'service.name': 'shop' },
      links: [],
      ...f.data,
    };
    return {
      trace_uuid: UUID,
      id: f.id,
      parent_id: f.parent ?? '0',
      time_ns: String(T0 + BigInt(f.at)),
      is_event: Boolean(f.event),
      project_id: 1,
      data: JSON.stringify(data),
    };
  });
}

/** The engine's answer to the trace query: the rows as one JSON array, each row's data as stored. */
const fakeStore = (rows: ReturnType<typeof storedRows>) => {
  const text = rows.map((r) => `["${r.id}","${r.parent_id}","${r.time_ns}",${r.is_event ? 1 : 0},${r.data}]`);
  return { kind: 'chdb', queryText: () => Promise.resolve(`[${text.join(',')}]\n`) } as unknown as TelemetryStore;
};

async function answer(fixtures: readonly Fixture[]): Promise<string> {
  const spans = createTracingStore(fakeStore(storedRows(fixtures)));
  return JSON.stringify(buildTraceTree(TRACE, await spans.traceRows(1, TRACE)), null, 1);
}

const FULL: Fixture[] = [
  {
    id: '1',
    at: 0,
    duration: 3_000_000_000,
    data: {
      system: 'http:shop',
      kind: 'server',
      statusCode: 'error',
      statusMessage: 'boom "quoted"\nline',
      attrs: {
        'service.name': 'shop',
        'http.status_code': 500,
        ratio: 0.25,
        big: 2 ** 64,
        ok: false,
        none: null,
        list: [1, 'two', [3]],
        nested: { a: { b: 'c' } },
        text: 'ünïcödé ✓ 🚀 \u0001 \\ "q" </script>',
        '': 'empty key',
      },
    },
  },
  { id: '2', parent: '1', at: 10, duration: 500_000_000 },
  { id: '3', parent: '1', at: 10, duration: 100 },
  {
    id: 'e1',
    parent: '2',
    at: 20,
    event: true,
    data: { displayName: '', eventName: 'exception', system: 'exceptions' },
  },
  { id: '4', parent: '2', at: 30, duration: 1_000_000_000, data: { standalone: true } },
  {
    id: '5',
    parent: '1',
    at: 40,
    duration: 50,
    data: { links: [{ traceId: 'cd'.repeat(16), spanId: '18446744073709551615', attrs: { why: 'retry' } }] },
  },
  { id: 'e2', parent: '99', at: 45, event: true, data: { displayName: 'orphan log', eventName: 'log' } },
  { id: '6', parent: '98', at: 50, duration: 7 },
  { id: '3', parent: '1', at: 60, duration: 4_000_000_000 },
  { id: '7', at: 70, duration: 20 },
  { id: '8', parent: '9', at: 80, duration: 5 },
  { id: '9', parent: '8', at: 90, duration: 5 },
  { id: 'e3', parent: '1', at: 1_000_000_000, event: true, data: { displayName: '', eventName: '', name: 'bare' } },
  { id: 'e4', parent: '1', at: 500_000_000, event: true },
];

describe('trace answer', () => {
  it('matches the golden answer for a trace with every kind of row', async () => {
    const missingRoot: Fixture[] = [
      { id: '2', parent: '9', at: 1_500_000_000, duration: 5 },
      { id: '3', parent: '9', at: 1_500_000_000, duration: 5 },
      { id: 'e1', parent: '2', at: 1_500_000_001, event: true },
    ];
    await expect(`${await answer(FULL)}\n${await answer(missingRoot)}\n`).toMatchFileSnapshot(
      '__golden__/traceAnswer.golden.txt',
    );
  });
});
