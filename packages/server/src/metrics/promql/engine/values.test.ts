import { describe, expect, it } from 'vitest';
import { formatValue } from './values';

describe('formatValue (Go strconv.FormatFloat(f, "f", -1, 64))', () => {
  it.each([
    [1, '1'],
    [0.5, '0.5'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-1.234e25, '-12340000000000000000000000'],
    [0.1 + 0.2, '0.30000000000000004'],
    [-0, '-0'],
  ])('%s -> %s', (v, text) => expect(formatValue(v)).toBe(text));
});
