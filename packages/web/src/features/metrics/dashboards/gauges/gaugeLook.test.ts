import { describe, expect, it } from 'vitest';
import { dialBands, gaugeNumber, thresholdColor } from './gaugeLook';

const steps = [
  { value: 80, color: 'amber' },
  { value: 95, color: 'red' },
];

describe('gauge thresholds', () => {
  it('colours a value by the highest step it reaches (a step counts from its value up), the base below them', () => {
    expect(thresholdColor(10, steps, 'green')).toBe('green');
    expect(thresholdColor(80, steps, 'green')).toBe('amber');
    expect(thresholdColor(94.9, steps, 'green')).toBe('amber');
    expect(thresholdColor(95, steps, 'green')).toBe('red');
    expect(thresholdColor(null, steps, 'green')).toBe('green');
    expect(thresholdColor(1e9, [], 'green')).toBe('green');
  });

  it("draws a dial's bands from min to max, steps outside the range left out", () => {
    expect(dialBands({ min: 0, max: 100, thresholds: steps }, 'green')).toEqual([
      [0.8, 'green'],
      [0.95, 'amber'],
      [1, 'red'],
    ]);
    expect(dialBands({ min: 50, max: 90, thresholds: steps }, 'green')).toEqual([
      [0.75, 'green'],
      [1, 'amber'],
    ]);
    expect(dialBands({ min: 85, max: 200, thresholds: [{ value: -1, color: 'blue' }, ...steps] }, 'green')).toEqual([
      [10 / 115, 'amber'],
      [1, 'red'],
    ]);
    expect(dialBands({ min: 0, max: 100, thresholds: [] }, 'green')).toEqual([[1, 'green']]);
  });

  it('judges the first value column, a finite number only', () => {
    const cols = [
      { name: 'host', unit: '', isGroup: true },
      { name: 'cpu', unit: 'percent', isGroup: false },
    ];
    expect(gaugeNumber(cols, { host: 'a', cpu: 42 })).toBe(42);
    expect(gaugeNumber(cols, { host: 'a', cpu: null })).toBeNull();
    expect(gaugeNumber(cols, { host: 'a', cpu: Infinity })).toBeNull();
  });
});
