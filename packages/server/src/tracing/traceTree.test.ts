import { describe, expect, it } from 'vitest';
import {
  buildTraceTree,
  createTimeFormatter,
  MISSING_ROOT_MESSAGE,
  nsToRfc3339,
  selfTime,
  type TraceRow,
} from './traceTree';

const T0 = 1_700_000_000_000_000_000n;
function row(
  id: string,
  parentId: string | undefined,
  startOffsetNs: number,
  duration: number,
  extra: Partial<TraceRow['span']> = {},
  isEvent = false,
): TraceRow {
  const startNs = T0 + BigInt(startOffsetNs);
  return {
    startNs,
    isEvent,
    span: {
      id,
      ...(parentId ? { parentId } : {}),
      traceId: 'ab'.repeat(16),
      projectId: 1,
      system: 'funcs:app',
      groupId: '1',
      kind: 'internal',
      name: `span ${id}`,
      displayName: `span ${id}`,
      time: nsToRfc3339(startNs),
      duration,
      statusCode: 'ok',
      statusMessage: '',
      attrs: {},
      ...extra,
    },
  };
}

describe('buildTraceTree', () => {
  it('nests children under parents, sorted by time, with positions and self time', () => {
    const tree = buildTraceTree('ab'.repeat(16), [
      row('1', undefined, 0, 100),
      row('3', '1', 50, 30),
      row('2', '1', 10, 30),
      row('4', '2', 20, 10),
    ])!;
    expect(tree.root.id).toBe('1');
    expect(tree.root.children!.map((c) => c.id)).toEqual(['2', '3']);
    expect(tree.root.children![0].children!.map((c) => c.id)).toEqual(['4']);
    expect(tree.root.durationSelf).toBe(40);
    expect(tree.root.children![0].durationSelf).toBe(20);
    expect(tree.root.children![1].startPct).toBeCloseTo(0.5);
    expect(tree.root.children![1].endPct).toBeCloseTo(0.8);
    expect(tree.trace.duration).toBe(100);
    expect(tree.numSpan).toBe(4);
    expect([tree.root.level, tree.root.children![0].level, tree.root.children![0].children![0].level]).toEqual([
      0, 1, 2,
    ]);
  });

  it('orders events by time, a whole second before a fraction of it', () => {
    const tree = buildTraceTree('ab'.repeat(16), [
      row('1', undefined, 0, 3_000_000_000),
      row('e2', '1', 1_500_000_000, 0, { displayName: 'later' }, true),
      row('e1', '1', 1_000_000_000, 0, { displayName: 'first' }, true),
    ])!;
    // As text, '...:21Z' sorts after '...:21.5Z'; as time it comes first.
    expect(tree.root.events!.map((e) => [e.name, e.time])).toEqual([
      ['first', '2023-11-14T22:13:21Z'],
      ['later', '2023-11-14T22:13:21.5Z'],
    ]);
  });

  it('builds a 10,000-deep chain without overflowing', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => row(String(i + 1), i ? String(i) : undefined, i, 10_000 - i));
    const tree = buildTraceTree('ab'.repeat(16), rows)!;
    let s = tree.root;
    while (s.children) s = s.children[0];
    expect(s.level).toBe(9_999);
    expect(tree.numSpan).toBe(10_000);
  });

  it('attaches events to their span and orphans to the root', () => {
    const tree = buildTraceTree('ab'.repeat(16), [
      row('1', undefined, 0, 100),
      row('2', '99', 10, 5),
      row('e1', '2', 12, 0, { eventName: 'exception', displayName: 'Error: boom', system: 'exceptions' }, true),
      row('e2', '77', 13, 0, { eventName: 'log', displayName: 'hello' }, true),
    ])!;
    expect(tree.root.children!.map((c) => c.id)).toEqual(['2']);
    expect(tree.root.children![0].events!.map((e) => e.name)).toEqual(['Error: boom']);
    expect(tree.root.events!.map((e) => e.name)).toEqual(['hello']);
    expect(tree.numSpan).toBe(2);
  });

  it('creates a placeholder root when the root span is missing', () => {
    const tree = buildTraceTree('ab'.repeat(16), [row('2', '9', 10, 5), row('3', '9', 20, 5)])!;
    expect(tree.root.name).toBe('unknown');
    expect(tree.root.system).toBe('funcs:unknown');
    expect(tree.root.displayName).toBe(MISSING_ROOT_MESSAGE);
    expect(tree.root.children!.map((c) => c.id)).toEqual(['2', '3']);
    expect(tree.numSpan).toBe(3);
  });

  it('returns null for no rows', () => {
    expect(buildTraceTree('ab'.repeat(16), [])).toBeNull();
  });
});

describe('selfTime', () => {
  it.each([
    [[] as const, 100],
    [[[10, 20]], 80],
    [
      [
        [10, 20],
        [20, 20],
      ],
      70,
    ],
    [[[-50, 60]], 90],
    [[[90, 50]], 90],
    [[[0, 200]], 0],
  ] as const)('case %# -> %d self', (children, expected) => {
    expect(selfTime(0, 100, children)).toBe(expected);
  });
});

describe('nsToRfc3339', () => {
  it('keeps nanoseconds and trims trailing zeros', () => {
    expect(nsToRfc3339(1_700_000_000_123_456_789n)).toBe('2023-11-14T22:13:20.123456789Z');
    expect(nsToRfc3339(1_700_000_000_000_000_000n)).toBe('2023-11-14T22:13:20Z');
    expect(nsToRfc3339(1_700_000_000_500_000_000n)).toBe('2023-11-14T22:13:20.5Z');
  });
});

describe('createTimeFormatter', () => {
  it('formats the engine text of ns as nsToRfc3339 does, row after row', () => {
    const time = createTimeFormatter();
    const values = [
      1_700_000_000_123_456_789n,
      1_700_000_000_123_456_780n,
      1_700_000_000_000_000_000n,
      1_700_000_000_500_000_000n,
      1_700_000_001_000_000_001n,
      1_700_000_000_999_999_999n,
      1_000_000_000n,
      999_999_999n,
      5n,
      0n,
      -1_500_000_000n,
      4_102_444_800_000_000_010n,
    ];
    for (const ns of values) expect([ns, time(ns.toString(), ns)]).toEqual([ns, nsToRfc3339(ns)]);
  });
});
