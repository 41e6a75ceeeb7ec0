import { describe, expect, it } from 'vitest';
import { applyPatch, shouldReplace } from './addressPatch';

describe('applyPatch', () => {
  it('sets, repeats and removes keys, keeping the others', () => {
    expect(applyPatch('system=all&query=x', { query: 'where a = 1', column: ['p50', 'p90'] })).toBe(
      'system=all&query=where+a+%3D+1&column=p50&column=p90',
    );
    expect(applyPatch('system=a&system=b&x=1', { system: null })).toBe('x=1');
    expect(applyPatch('', {})).toBe('');
  });
});

describe('shouldReplace', () => {
  it('replaces the first write after a navigation, pushes later ones', () => {
    expect(shouldReplace('/spans/1?a=1', undefined)).toBe(true);
    expect(shouldReplace('/spans/1?a=1', '/spans/1?a=1')).toBe(false);
    expect(shouldReplace('/spans/1?a=2', '/spans/1?a=1')).toBe(true);
    expect(shouldReplace('/spans/1?a=1', '/spans/1?a=1', true)).toBe(true);
  });
});
