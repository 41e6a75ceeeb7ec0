import { describe, expect, it } from 'vitest';
import { ALLOWED_RANGE_NAME, withAllowedRange } from './allowedRange';

const option = () => ({
  series: [
    { name: 'a', yAxisIndex: 0 },
    { name: 'b', yAxisIndex: 0 },
  ],
  yAxis: [{ type: 'value' }],
});

describe('withAllowedRange', () => {
  it('shades min..max on the first series only', () => {
    const o = withAllowedRange(option(), { min: 1, max: 5 });
    const area = o.series![0].markArea as { data: unknown[][] };
    expect(area.data[0]).toEqual([
      { name: ALLOWED_RANGE_NAME, xAxis: 'min', yAxis: 1 },
      { xAxis: 'max', yAxis: 5 },
    ]);
    expect(o.series![1].markArea).toBeUndefined();
  });
  it('opens the missing bound to 0 or the top', () => {
    const area = withAllowedRange(option(), { min: null, max: 0.9 }).series![0].markArea as { data: unknown[][] };
    expect(area.data[0]).toEqual([
      { name: ALLOWED_RANGE_NAME, xAxis: 'min', yAxis: 0 },
      { xAxis: 'max', yAxis: 0.9 },
    ]);
    const top = withAllowedRange(option(), { min: 3, max: null }).series![0].markArea as { data: unknown[][] };
    expect(top.data[0][1]).toEqual({ xAxis: 'max', yAxis: 'max' });
  });
  it('stretches the y-axis to both bounds', () => {
    const axis = (
      withAllowedRange(option(), { min: 1, max: 5 }).yAxis as Record<
        string,
        (v: { min: number; max: number }) => number
      >[]
    )[0];
    expect(axis.min({ min: 2, max: 3 })).toBe(1);
    expect(axis.max({ min: 2, max: 3 })).toBe(5);
    expect(axis.max({ min: 2, max: 9 })).toBe(9);
  });
  it('stretches a byte axis out to its binary step, so its end labels stay round', () => {
    const MB = 1024 ** 2;
    const bytes = { ...option(), yAxis: [{ type: 'value', minInterval: 64 * MB, maxInterval: 64 * MB }] };
    const axis = (
      withAllowedRange(bytes, { min: null, max: 300e6 }).yAxis as Record<
        string,
        (v: { min: number; max: number }) => number
      >[]
    )[0];
    // Data 207..225 MB, max bound 286 MB: the axis runs 192..320 MB (ticks 192, 256, 320 MB).
    expect(axis.min({ min: 217e6, max: 235e6 })).toBe(192 * MB);
    expect(axis.max({ min: 217e6, max: 235e6 })).toBe(320 * MB);
  });
  it('leaves the option alone without bounds', () => {
    const o = option();
    expect(withAllowedRange(o, { min: null, max: null })).toBe(o);
  });
});
