import { describe, expect, it } from 'vitest';
import { explicitBucketList, explicitBuckets, exponentialBuckets, valueRange } from './histogram';

describe('explicitBuckets', () => {
  it('uses midpoints, and min/max for the open buckets', () => {
    expect(explicitBuckets([10, 20, 50], [1, 0, 3, 2], 4, 80)).toEqual({ values: [7, 35, 65], counts: [1, 3, 2] });
  });
  it('falls back to the finite bound without min/max', () => {
    expect(explicitBuckets([10, 20], [1, 1, 1])).toEqual({ values: [10, 15, 20], counts: [1, 1, 1] });
  });
  it('represents a bucket wider than the values inside [min, max]', () => {
    // SDK default buckets made for milliseconds, values in seconds: all of them in (0, 5].
    expect(explicitBuckets([0, 5, 10], [0, 3, 0, 0], 0.01, 0.35)).toEqual({ values: [0.18], counts: [3] });
    // The highest bucket (500, 750] holds values up to 600 only.
    expect(explicitBuckets([50, 500, 750], [0, 2, 1, 0], 50, 600)).toEqual({ values: [275, 550], counts: [2, 1] });
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

describe('valueRange', () => {
  const bounds = [25, 50, 75, 500, 750];
  it("keeps a point's own min and max", () => {
    expect(valueRange(explicitBucketList(bounds, [0, 1, 5, 0, 1, 0])!, 50, 600)).toEqual({ min: 50, max: 600 });
  });
  it("narrows a cumulative point's min and max to the buckets its delta filled", () => {
    // The window's min (30) and max (600) came earlier; this minute only filled (50, 75].
    expect(valueRange(explicitBucketList(bounds, [0, 0, 4, 0, 0, 0])!, 30, 600)).toEqual({ min: 50, max: 75 });
  });
  it('falls back to the representatives without min and max, and is null when empty', () => {
    expect(valueRange(explicitBucketList(bounds, [0, 0, 4, 1, 0, 0])!)).toEqual({ min: 62.5, max: 287.5 });
    expect(valueRange(explicitBucketList(bounds, [0, 0, 0, 0, 0, 0])!, 1, 2)).toBeNull();
  });
});
