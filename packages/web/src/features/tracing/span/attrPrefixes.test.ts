import { describe, expect, it } from 'vitest';
import { attrPrefixes, keysForPrefix, nestAttrs } from './attrPrefixes';

describe('attrPrefixes', () => {
  it('lists dotted prefixes and other', () => {
    expect(attrPrefixes(['http.method', 'http.route', 'service.name', 'foo'])).toEqual(['http.', 'service.', 'other']);
  });

  it('compacts when there are 10 or more prefixes', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `p${i}.only`).concat([
      'http.a',
      'http.b',
      'http.req.a',
      'http.req.b',
    ]);
    const prefixes = attrPrefixes(keys);
    expect(prefixes.length).toBeLessThan(10);
    expect(prefixes).toContain('http.');
    expect(prefixes).toContain('other');
  });

  it('filters keys by prefix', () => {
    const keys = ['http.method', 'service.name', 'foo'];
    const prefixes = attrPrefixes(keys);
    expect(keysForPrefix(keys, 'http.', prefixes)).toEqual(['http.method']);
    expect(keysForPrefix(keys, 'other', prefixes)).toEqual(['foo']);
    expect(keysForPrefix(keys, null, prefixes)).toEqual(keys);
  });
});

describe('nestAttrs', () => {
  it('nests dotted keys and keeps colliding scalars under _value', () => {
    expect(nestAttrs({ 'http.method': 'GET', http: 'x', 'a.b.c': 1, j: '{"k":1}' })).toEqual({
      http: { method: 'GET', _value: 'x' },
      a: { b: { c: 1 } },
      j: { k: 1 },
    });
  });
});
