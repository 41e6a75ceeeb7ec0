import { describe, expect, it } from 'vitest';
import { nearestIndex, sparklineGeometry } from './sparklinePath';

const points = (path: string) =>
  [...path.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);

describe('sparkline geometry', () => {
  it('an error rate that never failed, with buckets without spans: one flat 0 line over the whole width, no dots', () => {
    const rate = [null, 0, null, null, 0, null, 0, null];
    const g = sparklineGeometry(rate, { gapsAsZero: true });
    expect(g.dots).toEqual([]);
    expect(g.line.match(/M/g)).toHaveLength(1);
    const pts = points(g.line);
    expect(pts).toHaveLength(rate.length);
    expect(new Set(pts.map(([, y]) => y)).size).toBe(1);
    expect(pts[0][0]).toBeLessThanOrEqual(2);
    expect(pts[pts.length - 1][0]).toBeGreaterThanOrEqual(98);
    // On the base: 0 is the bottom of the range.
    expect(pts[0][1]).toBe(29);
  });

  it('without gapsAsZero a value between two gaps is a dot and a gap breaks the line', () => {
    const g = sparklineGeometry([null, 5, null, 1, 2, 3, null]);
    expect(g.dots).toHaveLength(1);
    expect(g.line.match(/M/g)).toHaveLength(1);
    expect(points(g.line)).toHaveLength(3);
    const two = sparklineGeometry([1, 2, null, 3, 4]);
    expect(two.line.match(/M/g)).toHaveLength(2);
    expect(two.area.match(/Z/g)).toHaveLength(2);
  });

  it('scales the largest value to the top and keeps 0 in range', () => {
    const g = sparklineGeometry([10, 20, 40]);
    const ys = points(g.line).map(([, y]) => y);
    expect(ys[2]).toBe(2);
    expect(ys[0]).toBeLessThan(29);
    expect(ys[0]).toBeGreaterThan(ys[1]);
  });

  it('nothing measured draws nothing', () => {
    expect(sparklineGeometry([null, null])).toMatchObject({ line: '', area: '', dots: [] });
    expect(sparklineGeometry([])).toMatchObject({ line: '', area: '', dots: [], xs: [] });
  });

  it('finds the bucket nearest the pointer', () => {
    const { xs } = sparklineGeometry([1, 2, 3, 4, 5]);
    expect(nearestIndex(xs, 0)).toBe(0);
    expect(nearestIndex(xs, 51)).toBe(2);
    expect(nearestIndex(xs, 100)).toBe(4);
  });
});
