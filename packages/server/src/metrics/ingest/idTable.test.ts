import { describe, expect, it } from 'vitest';
import { IdTable } from './idTable';

describe('IdTable', () => {
  it('finds values by both halves of their id as it grows, ids that share a half apart', () => {
    const t = new IdTable<number>(4);
    const ids: [number, number][] = [];
    for (let i = 0; i < 5000; i++) ids.push([(i * 2654435761) >>> 0, (i * 40503 + 0xfffff000) >>> 0]);
    // The same low half (and the same probe start) under other high halves, and the reverse.
    ids.push([1, ids[0][1]], [ids[0][0], 7], [0xffffffff, 0xffffffff]);
    ids.forEach(([hi, lo], i) => t.set(hi, lo, i));
    expect(t.size).toBe(ids.length);
    ids.forEach(([hi, lo], i) => expect(t.get(hi, lo)).toBe(i));
    expect(t.get(2, ids[0][1])).toBeUndefined();
    t.set(ids[0][0], ids[0][1], -1);
    expect([t.get(ids[0][0], ids[0][1]), t.size]).toEqual([-1, ids.length]);
  });
});
