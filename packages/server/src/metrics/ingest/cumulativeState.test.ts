import { describe, expect, it } from 'vitest';
import { CumulativeState, histogramDiff, numberDiff, type StateJournal } from './cumulativeState';

const started = 1_000n;

describe('CumulativeState', () => {
  it('drops the first point of a series that started before the process', () => {
    const s = new CumulativeState(10, started);
    expect(s.step('a', 500n, 2_000n, 10, numberDiff)).toBeNull();
    expect(s.step('a', 500n, 3_000n, 15, numberDiff)).toBe(5);
  });
  it('counts the first point of a series that started after the process in full', () => {
    const s = new CumulativeState(10, started);
    expect(s.step('a', 1_500n, 2_000n, 10, numberDiff)).toBe(10);
  });
  it('treats a new start time (reset) as a new series', () => {
    const s = new CumulativeState(10, started);
    s.step('a', 1_500n, 2_000n, 10, numberDiff);
    expect(s.step('a', 2_500n, 3_000n, 4, numberDiff)).toBe(4);
  });
  it('drops out-of-order and repeated points and keeps the state', () => {
    const s = new CumulativeState(10, started);
    s.step('a', 1_500n, 3_000n, 10, numberDiff);
    expect(s.step('a', 1_500n, 2_000n, 20, numberDiff)).toBeNull();
    expect(s.step('a', 1_500n, 3_000n, 20, numberDiff)).toBeNull();
    expect(s.step('a', 1_500n, 4_000n, 12, numberDiff)).toBe(2);
  });
  it('stores a negative delta as 0', () => {
    const s = new CumulativeState(10, started);
    s.step('a', 1_500n, 2_000n, 10, numberDiff);
    expect(s.step('a', 1_500n, 3_000n, 7, numberDiff)).toBe(0);
  });
  it('evicts the least recently used key', () => {
    const s = new CumulativeState(2, started);
    s.step('a', 500n, 2_000n, 1, numberDiff);
    s.step('b', 500n, 2_000n, 1, numberDiff);
    s.step('a', 500n, 3_000n, 2, numberDiff);
    s.step('c', 500n, 2_000n, 1, numberDiff);
    expect(s.size).toBe(2);
    expect(s.step('a', 500n, 4_000n, 9, numberDiff)).toBe(7);
    expect(s.step('b', 500n, 3_000n, 5, numberDiff)).toBeNull(); // evicted: a first point again
  });
  it('accumulates delta up-down counter changes into a level', () => {
    const s = new CumulativeState(10, started);
    expect(s.accumulate('u', 5)).toBe(5);
    expect(s.accumulate('u', -2)).toBe(3);
  });
});

describe('histogramDiff', () => {
  const h = (count: number, buckets: number[]) => ({ count, sum: count * 10, buckets, bounds: [1, 2] });
  it('subtracts bucket by bucket', () => {
    expect(histogramDiff(h(3, [1, 1, 1]), h(6, [2, 3, 1]))).toMatchObject({ count: 3, sum: 30, buckets: [1, 2, 0] });
  });
  it('refuses a falling count or a changed layout', () => {
    expect(histogramDiff(h(6, [2, 3, 1]), h(3, [1, 1, 1]))).toBeNull();
    expect(histogramDiff(h(3, [1, 1, 1]), { count: 4, sum: 1, buckets: [1, 3], bounds: [1] })).toBeNull();
  });
  it('subtracts exponential buckets by absolute index', () => {
    const prev = { count: 2, sum: 5, buckets: new Map([[3, 2]]), scale: 0, zeroCount: 0 };
    const cur = {
      count: 5,
      sum: 9,
      buckets: new Map([
        [3, 3],
        [4, 2],
      ]),
      scale: 0,
      zeroCount: 0,
    };
    const d = histogramDiff(prev, cur)!;
    expect(d.count).toBe(3);
    expect([...(d.buckets as Map<number, number>)]).toEqual([
      [3, 1],
      [4, 2],
    ]);
  });
});

describe('CumulativeState of a refused request', () => {
  it('restores what its steps replaced, so the retry counts in full', () => {
    const s = new CumulativeState(10, started);
    s.step('a', 500n, 2_000n, 10, numberDiff);
    const journal: StateJournal = new Map();
    expect(s.step('a', 500n, 3_000n, 20, numberDiff, journal)).toBe(10);
    expect(s.step('b', 500n, 3_000n, 1, numberDiff, journal)).toBeNull();
    expect(s.accumulate('u', 3, journal)).toBe(3);
    s.restore(journal);
    expect(s.size).toBe(1);
    expect(s.step('a', 500n, 3_000n, 20, numberDiff)).toBe(10);
    expect(s.accumulate('u', 3)).toBe(3);
  });

  it('lets a request of a locked series wait until the lock is released', async () => {
    const s = new CumulativeState(10, started);
    const unlockA = await s.lockSeries(new Set(['a', 'b']));
    const order: string[] = [];
    const other = s.lockSeries(new Set(['c'])).then((unlock) => {
      order.push('c');
      unlock();
    });
    const same = s.lockSeries(new Set(['b'])).then((unlock) => {
      order.push('b');
      unlock();
    });
    await other;
    expect(order).toEqual(['c']);
    unlockA();
    await same;
    expect(order).toEqual(['c', 'b']);
  });
});
