import { describe, expect, it } from 'vitest';
import { wouldFire } from './wouldFire';

const minutes = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString());

describe('would have fired', () => {
  it('counts runs outside the range that last the for-duration', () => {
    const values = [1, 9, 9, 9, 1, 9, 9, 1, 9, 9, 9, 9];
    expect(wouldFire(minutes(12), [values], { min: null, max: 5 }, 3)).toEqual({ times: 2, outsidePoints: 9, points: 12 });
    expect(wouldFire(minutes(12), [values], { min: null, max: 5 }, 1)).toEqual({ times: 3, outsidePoints: 9, points: 12 });
  });
  it('breaks a run on a gap and checks min too, per series', () => {
    expect(wouldFire(minutes(4), [[0, null, 0, 0], [5, 5, 5, 5]], { min: 1, max: null }, 2)).toEqual({ times: 1, outsidePoints: 3, points: 7 });
  });
});
