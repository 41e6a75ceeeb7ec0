import { describe, expect, it } from 'vitest';
import { averageOfPresent } from './seriesAverage';

describe('averageOfPresent', () => {
  it('averages over the minutes with data only', () => {
    // A group with spans in 2 of 60 minutes: its p50 is about 529 µs, not 529/30.
    const p50 = Array.from({ length: 60 }, (_, i) => (i === 20 ? 500_000 : i === 50 ? 558_000 : null));
    expect(averageOfPresent(p50)).toBe(529_000);
  });

  it('keeps real zeros', () => expect(averageOfPresent([0, null, 4])).toBe(2));

  it('is null when no minute has data', () => {
    expect(averageOfPresent([null, null])).toBeNull();
    expect(averageOfPresent([])).toBeNull();
    expect(averageOfPresent([NaN, undefined])).toBeNull();
  });
});
