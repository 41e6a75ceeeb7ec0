import { describe, expect, it } from 'vitest';
import { toText } from './toText';

describe('toText', () => {
  it('prints primitives, blanks null and undefined, and writes objects as JSON', () => {
    expect(toText('a b')).toBe('a b');
    expect(toText(1.5)).toBe('1.5');
    expect(toText(false)).toBe('false');
    expect(toText(10n)).toBe('10');
    expect(toText(null)).toBe('');
    expect(toText(undefined)).toBe('');
    expect(toText({ a: 1 })).toBe('{"a":1}');
    expect(toText(['x', 2])).toBe('["x",2]');
  });
});
