import { describe, expect, it } from 'vitest';
import { formatDuration, formatMagnitude, magnitudeDecimals } from './duration';

describe('magnitudeDecimals', () => {
  it.each([
    [0.05, 3],
    [0.1, 2],
    [0.99, 2],
    [1, 1],
    [9.99, 1],
    [10, 0],
    [12345, 0],
    [-0.05, 3],
  ])('%d -> %d decimals', (value, decimals) => {
    expect(magnitudeDecimals(value)).toBe(decimals);
  });
});

describe('formatMagnitude', () => {
  it('re-decides when rounding crosses a bound', () => {
    expect(formatMagnitude(9.96)).toBe('10');
    expect(formatMagnitude(0.0996)).toBe('0.10');
    expect(formatMagnitude(0.99996)).toBe('1.0');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0'],
    [NaN, '0'],
    [50, '0.050µs'],
    [250, '0.25µs'],
    [1_000, '1.0µs'],
    [1_500, '1.5µs'],
    [12_345, '12µs'],
    [999_000, '999µs'],
    [999_700, '1.0ms'],
    [1_000_000, '1.0ms'],
    [1_500_000, '1.5ms'],
    [9_960_000, '10ms'],
    [250_000_000, '250ms'],
    [999_999_999, '1.0s'],
    [1_000_000_000, '1.0s'],
    [12_300_000_000, '12s'],
    [3_600_000_000_000, '3600s'],
    [-1_500_000, '-1.5ms'],
  ])('%d ns -> %s', (ns, text) => {
    expect(formatDuration(ns)).toBe(text);
  });
});
