import { describe, expect, it } from 'vitest';
import { foldArrayParams, toSearchParams, withQuery } from './queryString';

/** A query string parsed the way Fastify's default parser does: a repeated key becomes an array. */
function parseLikeServer(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

describe('toSearchParams / withQuery', () => {
  it('repeats the key for a list and leaves out unset values', () => {
    const qs = toSearchParams({ system: ['a', 'b'], limit: 10, dense: true, query: undefined, cursor: null });
    expect(qs.toString()).toBe('system=a&system=b&limit=10&dense=true');
  });
  it('encodes reserved characters', () => {
    expect(withQuery('/x', { query: 'where a = "b & c"' })).toBe('/x?query=where+a+%3D+%22b+%26+c%22');
  });
  it('leaves the path alone when nothing is set', () => {
    expect(withQuery('/x', {})).toBe('/x');
    expect(withQuery('/x', undefined)).toBe('/x');
    expect(withQuery('/x', { system: [] })).toBe('/x');
  });
});

describe('foldArrayParams', () => {
  it('treats system[]=a and system=a alike and merges repeats', () => {
    expect(foldArrayParams({ 'system[]': ['a', 'b'], system: 'c', query: 'q' })).toEqual({
      system: ['a', 'b', 'c'],
      query: 'q',
    });
    expect(foldArrayParams({ 'column[]': 'x' })).toEqual({ column: 'x' });
    expect(foldArrayParams(undefined)).toEqual({});
  });
  it('reads back what the web client wrote', () => {
    const sent = { system: ['db:all', 'http:all'], query: 'group by .name', limit: '5' };
    expect(foldArrayParams(parseLikeServer(toSearchParams(sent).toString()))).toEqual(sent);
  });
});
