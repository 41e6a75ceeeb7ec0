import { describe, expect, it } from 'vitest';
import { formatBytes, formatNum, formatNumber, formatPercents, formatUtilization } from './number';

describe('formatNum', () => {
  it.each([
    [0, '0'],
    [NaN, '0'],
    [0.0123, '0.012'],
    [0.5, '0.50'],
    [2, '2'],
    [0.1 + 0.2 + 1.7, '2'],
    [2.04, '2.0'],
    [5.55, '5.5'],
    [999, '999'],
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

describe('percent and bytes', () => {
  it.each([
    [0, '0%'],
    [0.00001, '0%'],
    [0.05, '0.050%'],
    [5, '5%'],
    [5.5, '5.5%'],
    [50, '50%'],
  ])('percents %d -> %s', (n, text) => expect(formatPercents(n)).toBe(text));

  it('utilization is a fraction', () => {
    expect(formatUtilization(0.125)).toBe('13%');
    expect(formatUtilization(0.01)).toBe('1%');
    // 0.05 * 100 is 5.000000000000001.
    expect(formatUtilization(0.05)).toBe('5%');
    expect(formatUtilization(0.055)).toBe('5.5%');
  });

  it.each([
    [512, '512'],
    [2048, '2 KB'],
    [2100, '2.1 KB'],
    [1536 * 1024, '1.5 MB'],
    [5 * 1024 ** 3, '5 GB'],
  ])('bytes %d -> %s', (n, text) => expect(formatBytes(n)).toBe(text));
});

describe('formatNumber', () => {
  it('formats a number by its unit', () => {
    expect(formatNumber(1_500_000, 'nanoseconds')).toBe('1.5ms');
    expect(formatNumber(1.5, 'seconds')).toBe('1.5s');
    expect(formatNumber(0.5, 'utilization')).toBe('50%');
    expect(formatNumber(12, 'percents')).toBe('12%');
    expect(formatNumber(1, 'gigabytes')).toBe('1 GB');
    expect(formatNumber(1500, '')).toBe('1.5k');
    expect(formatNumber(3, 'requests')).toBe('3');
  });
});
