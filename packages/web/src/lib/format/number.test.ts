import { describe, expect, it } from 'vitest';
import { formatAxisTick, formatMetric, formatUnit } from './number';

describe('formatUnit', () => {
  it('picks the formatter of the unit', () => {
    expect(formatUnit(1_500_000, 'nanoseconds')).toBe('1.5ms');
    expect(formatUnit(250, 'milliseconds')).toBe('250ms');
    expect(formatUnit(0.5, 'utilization')).toBe('50%');
    expect(formatUnit(2048, 'bytes')).toBe('2 KB');
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

describe('formatAxisTick', () => {
  it('keeps the magnitude rule where it shows the tick itself, and reads the tick exactly where it would not', () => {
    expect(formatAxisTick(0.002, '')).toBe('0.002');
    expect(formatAxisTick(0.0015, '')).toBe('0.0015');
    expect(formatAxisTick(0.0025, '')).toBe('0.0025');
    expect(formatAxisTick(1500, '')).toBe('1.5k');
    expect(formatAxisTick(1025, '')).toBe('1.025k');
    expect(formatAxisTick(12.5, '')).toBe('12.5');
    expect(formatAxisTick(0, '')).toBe('0');
  });

  it('leaves units with their own format to it', () => {
    expect(formatAxisTick(1_500_000, 'nanoseconds')).toBe('1.5ms');
    expect(formatAxisTick(0.0015, 'utilization')).toBe(formatUnit(0.0015, 'utilization'));
  });
});
