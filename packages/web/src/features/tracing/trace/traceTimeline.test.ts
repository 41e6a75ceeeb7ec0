import type { Span } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { PALETTE } from '../../../components/charts/palette';
import { testSpan } from '../testSpan';
import {
  ancestorIds,
  barStyle,
  colorTrace,
  descendantBars,
  eventsBySystem,
  labelPosition,
  mergeBars,
  mergedDescendantBars,
  OTHER_COLOR,
} from './traceTimeline';

function span(id: string, system: string, self: number, extra: Partial<Span> = {}, children?: Span[]): Span {
  return testSpan(id, children, { system, duration: self, durationSelf: self, ...extra });
}

describe('colorTrace', () => {
  it('ranks systems by self time, keeps 6 and merges the rest into other', () => {
    const kids = Array.from({ length: 8 }, (_, i) => span(`s${i}`, `db:sys${i}`, 100 - i));
    const { systems, colorOf } = colorTrace(span('root', 'http:api', 1000, {}, kids));
    expect(systems.map((s) => s.name)).toEqual([
      'http:api',
      'db:sys0',
      'db:sys1',
      'db:sys2',
      'db:sys3',
      'db:sys4',
      'other',
    ]);
    expect(systems[6]).toEqual({ name: 'other', duration: 95 + 94 + 93, color: OTHER_COLOR });
    expect(colorOf.get('root')).toBe(PALETTE[0]);
    expect(colorOf.get('s7')).toBe(OTHER_COLOR);
  });

  it('shows funcs systems in the bar like any other system', () => {
    const { systems, colorOf } = colorTrace(
      span('root', 'http:api', 10, {}, [span('f', 'funcs', 50, {}, [span('g', 'funcs:shop', 5)])]),
    );
    expect(systems).toEqual([
      { name: 'funcs', duration: 50, color: PALETTE[0] },
      { name: 'http:api', duration: 10, color: PALETTE[1] },
      { name: 'funcs:shop', duration: 5, color: PALETTE[2] },
    ]);
    expect(colorOf.get('f')).toBe(PALETTE[0]);
  });
});

describe('bars', () => {
  it('positions bars and gives tiny ones 1px', () => {
    expect(barStyle(0.25, 0.75)).toEqual({ left: '25.000%', width: '50.000%' });
    expect(barStyle(0.5, 0.5005)).toEqual({ left: '50.000%', width: '1px' });
  });

  it('overlays descendants clipped to the span and skips consumer subtrees', () => {
    const tree = span('root', 'http:a', 1, { startPct: 0.1, endPct: 0.5 }, [
      span('a', 'db:x', 1, { startPct: 0.2, endPct: 0.9 }, [span('a1', 'db:x', 1, { startPct: 0.3, endPct: 0.4 })]),
      span('c', 'messaging', 1, { kind: 'consumer', startPct: 0.6, endPct: 0.7 }, [
        span('c1', 'db:x', 1, { startPct: 0.6, endPct: 0.7 }),
      ]),
    ]);
    const bars = descendantBars(tree, () => 'red').map((b) => [b.id, b.startPct, b.endPct]);
    expect(bars.sort()).toEqual([
      ['a', 0.2, 0.5],
      ['a1', 0.3, 0.4],
    ]);
  });

  it('merges touching bars of one colour', () => {
    const merged = mergeBars([
      { id: 'a', startPct: 0.1, endPct: 0.2, color: 'red' },
      { id: 'b', startPct: 0.2005, endPct: 0.3, color: 'red' },
      { id: 'c', startPct: 0.5, endPct: 0.6, color: 'red' },
      { id: 'd', startPct: 0.1, endPct: 0.6, color: 'blue' },
    ]);
    expect(merged.map((b) => [b.color, b.startPct, b.endPct])).toEqual([
      ['red', 0.1, 0.3],
      ['red', 0.5, 0.6],
      ['blue', 0.1, 0.6],
    ]);
  });

  it('places labels so they never run off the right edge', () => {
    expect(labelPosition(0.2, 0.3)).toEqual({ left: '20.000%' });
    expect(labelPosition(0.8, 0.9)).toEqual({ right: '10.000%' });
  });
});

describe('tree helpers', () => {
  const tree = span('root', 'http:a', 1, {}, [
    span('a', 'x', 1, { events: [{ name: 'e2', time: '2024-01-01T00:00:02Z', attrs: {}, system: 'log:error' }] }, [
      span('a1', 'x', 1, { events: [{ name: 'e1', time: '2024-01-01T00:00:01Z', attrs: {}, system: 'log:error' }] }),
    ]),
  ]);
  it('finds ancestors', () => {
    expect(ancestorIds(tree, 'a1')).toEqual(['root', 'a']);
    expect(ancestorIds(tree, 'root')).toEqual([]);
  });
  it('groups events by system in time order', () => {
    expect(
      eventsBySystem(tree)
        .get('log:error')!
        .map((e) => e.event.name),
    ).toEqual(['e1', 'e2']);
  });
});

describe('mergedDescendantBars', () => {
  it('gives every span what merging its whole subtree gives, built bottom-up', () => {
    // A generated tree: each span hangs under one of the last few, inside its parent's range.
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const root = span('root', 'http:api', 1, { startPct: 0, endPct: 1 }, []);
    const all = [root];
    for (let i = 0; i < 400; i++) {
      const parent = all[Math.max(0, all.length - 1 - Math.floor(rand() * 8))];
      const start = parent.startPct + rand() * (parent.endPct - parent.startPct);
      const child = span(
        `s${i}`,
        i % 3 ? 'funcs' : 'db:pg',
        1,
        {
          startPct: start,
          endPct: start + rand() * (parent.endPct - start) * 1.2,
          kind: i % 17 ? 'internal' : 'consumer',
        },
        [],
      );
      parent.children!.push(child);
      all.push(child);
    }
    const colorOf = (id: string) => (id.length % 2 ? 'red' : 'blue');
    const byId = mergedDescendantBars(root, colorOf);
    const cover = (bars: { startPct: number; endPct: number; color: string }[]) =>
      [...bars]
        .sort((a, b) => a.color.localeCompare(b.color) || a.startPct - b.startPct)
        .map((b) => `${b.color} ${b.startPct.toFixed(4)}-${b.endPct.toFixed(4)}`);
    for (const s of all) expect(cover(byId.get(s.id)!), s.id).toEqual(cover(mergeBars(descendantBars(s, colorOf))));
  });
});
