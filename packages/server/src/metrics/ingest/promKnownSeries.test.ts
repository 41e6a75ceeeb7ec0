import { describe, expect, it } from 'vitest';
import { labelHash, LabelTable, type KnownSeries } from './promKnownSeries';

const series = (name: string): KnownSeries => ({
  name,
  info: '',
  hi: 7,
  lo: Number(name.slice(1)),
  flags: 0,
  keys: [],
  keysNumber: 0,
});

describe('LabelTable', () => {
  it('finds series by their bytes anywhere in a buffer, also when their hashes collide', () => {
    const table = new LabelTable();
    const keys = Array.from({ length: 5000 }, (_, i) => Buffer.from(`\n\x08__name__\x12m${i}`));
    // Every fourth key under one hash: a hit must compare the bytes, not trust the hash.
    const hashOf = (k: Buffer, i: number) => (i % 4 === 0 ? 7 : labelHash(k, 0, k.length));
    keys.forEach((k, i) => expect(table.add(k, 0, k.length, hashOf(k, i), series(`m${i}`))).toBe(i));
    expect(table.size).toBe(5000);
    keys.forEach((k, i) => {
      const inside = Buffer.concat([Buffer.from('xyz'), k, Buffer.from('!')]);
      const e = table.find(inside, 3, 3 + k.length, hashOf(k, i));
      expect([table.series[e]?.name, table.hi[e], table.lo[e], table.named[e]]).toEqual([`m${i}`, 7, i, 1]);
    });
    const other = Buffer.from('\n\x08__name__\x12m5000');
    expect(table.find(other, 0, other.length, labelHash(other, 0, other.length))).toBe(-1);
    expect(table.find(other, 0, other.length, 7)).toBe(-1);
    // A key's prefix is not the key.
    expect(table.find(keys[12], 0, keys[12].length - 1, 7)).toBe(-1);
  });

  it('hashes the same bytes alike wherever they are, and other bytes apart', () => {
    const a = Buffer.from('..job=api,instance=host-1:9100');
    const b = Buffer.from('job=api,instance=host-1:9100');
    expect(labelHash(a, 2, a.length)).toBe(labelHash(b, 0, b.length));
    const hashes = new Set(
      Array.from({ length: 10_000 }, (_, i) => labelHash(Buffer.from(`series-${i}`), 0, 8 + String(i).length)),
    );
    expect(hashes.size).toBe(10_000);
    expect(labelHash(a, 0, 0)).toBe(labelHash(Buffer.alloc(0), 0, 0));
  });
});
