import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatMetric,
  formatNum,
  formatPercents,
  formatUnit,
  formatUtilization,
} from './number';

describe('formatNum', () => {
  it.each([
    [0, '0'],
    [NaN, '0'],
    [0.0123, '0.012'],
    [0.5, '0.50'],
    [5.55, '5.5'],
    [12.34, '12'],
    [999.4, '999'],
    [999.6, '1.0k'],
    [1500, '1.5k'],
    [12_345, '12k'],
    [999_400, '999k'],
    [2_000_000, '2.0m'],
    [3_400_000_000, '3.4b'],
    [-1500, '-1.5k'],
  ])('%d -> %s', (n, text) => expect(formatNum(n)).toBe(text));
});

describe('formatCount', () => {
  it('prints whole counts as integers and large ones scaled', () => {
    expect(formatCount(1)).toBe('1');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1500)).toBe('1.5k');
    expect(formatCount(2.5)).toBe(formatNum(2.5));
  });
});

describe('percent and bytes', () => {
  it.each([
    [0, '0%'],
    [0.00001, '0%'],
    [0.05, '0.050%'],
    [5, '5.0%'],
    [50, '50%'],
  ])('percents %d -> %s', (n, text) => expect(formatPercents(n)).toBe(text));

  it('utilization is a fraction', () => {
    expect(formatUtilization(0.125)).toBe('13%');
    expect(formatUtilization(0.01)).toBe('1.0%');
  });

  it.each([
    [512, '512'],
    [2048, '2.0 KB'],
    [1536 * 1024, '1.5 MB'],
    [5 * 1024 ** 3, '5.0 GB'],
  ])('bytes %d -> %s', (n, text) => expect(formatBytes(n)).toBe(text));
});

describe('formatUnit', () => {
  it('picks the formatter of the unit', () => {
    expect(formatUnit(1_500_000, 'nanoseconds')).toBe('1.5ms');
    expect(formatUnit(250, 'milliseconds')).toBe('250ms');
    expect(formatUnit(0.5, 'utilization')).toBe('50%');
    expect(formatUnit(2048, 'bytes')).toBe('2.0 KB');
    expect(formatUnit(1500, '')).toBe('1.5k');
    expect(formatUnit(undefined, '')).toBe('<missing>');
    expect(formatUnit('', '')).toBe('<empty>');
    expect(formatUnit(['a', 'b'], '')).toBe('a, b');
  });
});

describe('formatMetric', () => {
  it.each([
    [null, 'nanoseconds', '–'],
    [undefined, 'nanoseconds', '–'],
    [NaN, 'utilization', '–'],
    [0, 'nanoseconds', formatUnit(0, 'nanoseconds')],
    [529_000, 'nanoseconds', formatUnit(529_000, 'nanoseconds')],
    [0.25, 'utilization', '25%'],
  ])('%s %s -> %s', (v, unit, text) => expect(formatMetric(v, unit)).toBe(text));
});
