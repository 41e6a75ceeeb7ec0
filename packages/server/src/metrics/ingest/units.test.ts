import { describe, expect, it } from 'vitest';
import { normalizeUnit } from './units';

describe('normalizeUnit', () => {
  it.each([
    ['', ''],
    ['1', ''],
    ['count', ''],
    ['%', 'percents'],
    ['ms', 'milliseconds'],
    ['s', 'seconds'],
    ['By', 'bytes'],
    ['KiB', 'kilobytes'],
    ['{requests}', '{requests}'],
    ['Seconds', 'seconds'],
  ])('%j -> %j', (input, want) => expect(normalizeUnit(input)).toBe(want));
});
