import { describe, expect, it } from 'vitest';
import { replaySeries } from './metricDryRun';

const T0 = Date.UTC(2026, 0, 1);
const params = { forDuration: 3, forDurationUnit: 'minutes' as const, minValue: null, maxValue: 10 };

describe('metric monitor dry run', () => {
  it('fires once per episode that lasts the for-duration, and again after recovering', () => {
    const high = (n: number) => new Array<number>(n).fill(50);
    const ok = (n: number) => new Array<number>(n).fill(1);
    const values = [...ok(10), ...high(5), ...ok(20), ...high(2), ...ok(5), ...high(4)];
    const r = replaySeries(values, params, T0);
    expect(r.fired).toBe(2);
    expect(r.firstAt).toBe(T0 + 13 * 60_000);
  });

  it('does not fire on gaps or values within bounds', () => {
    expect(replaySeries([1, null, 50, null, 50, 50, null], params, T0)).toEqual({ fired: 0, firstAt: null });
  });
});
