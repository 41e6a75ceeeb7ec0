import { describe, expect, it } from 'vitest';
import { explicitBuckets, exponentialBuckets } from './histogram';

describe('explicitBuckets', () => {
  it('uses midpoints, and min/max for the open buckets', () => {
    expect(explicitBuckets([10, 20, 50], [1, 0, 3, 2], 4, 80)).toEqual({ values: [7, 35, 65], counts: [1, 3, 2] });
  });
  it('falls back to the finite bound without min/max', () => {
    expect(explicitBuckets([10, 20], [1, 1, 1])).toEqual({ values: [10, 15, 20], counts: [1, 1, 1] });
  });
  it('refuses mismatched lengths', () => {
    expect(explicitBuckets([10], [1])).toEqual({ values: [], counts: [] });
  });
});

describe('exponentialBuckets', () => {
  it('uses base 2^(2^-scale): scale 1 means base sqrt(2)', () => {
    const b = exponentialBuckets({
      scale: 1,
      zeroCount: 2,
      positive: { offset: 2, counts: [3] },
      negative: { offset: 0, counts: [] },
    });
    // bucket 2 covers (2, 2*sqrt(2)]
    expect(b.values[0]).toBe(0);
    expect(b.values[1]).toBeCloseTo((2 + 2 * Math.SQRT2) / 2, 10);
    expect(b.counts).toEqual([2, 3]);
  });
  it('mirrors the negative range', () => {
    const b = exponentialBuckets({
      scale: 0,
      zeroCount: 0,
      positive: { offset: 0, counts: [1] },
      negative: { offset: 1, counts: [4] },
    });
    expect(b).toEqual({ values: [-3, 1.5], counts: [4, 1] });
  });
});
