import { describe, expect, it } from 'vitest';
import { nulPath } from './nulText';

describe('nulPath', () => {
  it('names the first string or key holding U+0000', () => {
    expect(nulPath({ a: ['x', { b: 'y\u0000' }] }, '')).toBe('a.1.b');
    expect(nulPath({ ['k\u0000']: 1 }, 'body')).toBe('body');
    expect(nulPath('a\u0000', '')).toBe('');
    expect(nulPath({ a: ['x', 1, null, true] }, '')).toBeNull();
    // A YAML alias can make a value that contains itself.
    const circular: Record<string, unknown> = { a: 'x' };
    circular.self = { back: circular };
    expect(nulPath(circular, '')).toBeNull();
    circular.z = 'n\u0000';
    expect(nulPath(circular, 'body')).toBe('body.z');
  });

  it('walks a value whose parts are shared once per part (2^40 paths through 40 objects)', () => {
    let shared: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 40; i++) shared = { a: shared, b: shared };
    expect(nulPath(shared, '')).toBeNull();
    let withNul: Record<string, unknown> = { leaf: 'x\u0000' };
    for (let i = 0; i < 40; i++) withNul = { a: withNul, b: withNul };
    expect(nulPath(withNul, '')).toBe(`${'b.'.repeat(40)}leaf`);
  });

  it('walks a value nested 400k deep in linear time and memory', () => {
    const deep = JSON.parse('['.repeat(400_000) + '"a\\u0000"' + ']'.repeat(400_000)) as unknown;
    const started = Date.now();
    expect(nulPath(deep, '')?.length).toBe(2 * 400_000 - 1);
    expect(nulPath(JSON.parse('['.repeat(400_000) + ']'.repeat(400_000)), '')).toBeNull();
    // Linear takes ~1 s on a quiet machine (6.6 s seen at load 13); quadratic, 400k² steps, takes minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
