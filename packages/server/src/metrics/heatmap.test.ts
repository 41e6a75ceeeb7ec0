import { describe, expect, it } from 'vitest';
import { buildHeatmap } from './heatmap';
import { fixedGrid } from './query/timeRange';

const gte = new Date('2026-01-01T00:00:00Z');
const grid = fixedGrid(gte, 1, 3);
const t = (minute: number) => gte.getTime() / 1000 + minute * 60;

describe('buildHeatmap', () => {
  it('bins values between the global min and max, the max in the last bin', () => {
    const h = buildHeatmap(grid, [
      { t: t(0), values: [0.5, 1], counts: [3, 1] },
      { t: t(2), values: [0.5, 100], counts: [0, 2] },
    ]);
    expect(h.yAxis).toHaveLength(16);
    expect(h.yAxis[0][0]).toBe(0.5);
    expect(h.yAxis[15][1]).toBeGreaterThan(100);
    expect(h.data[0]).toEqual([0, 0, 3]);
    expect(h.data.at(-1)).toEqual([2, 15, 2]);
    expect(h.data.reduce((n, d) => n + d[2], 0)).toBe(6);
  });

  it('gives one band, not 16 with the same label, when every value is the same', () => {
    const h = buildHeatmap(grid, [
      { t: t(0), values: [2.5], counts: [4] },
      { t: t(1), values: [2.5], counts: [1] },
    ]);
    expect(h.yAxis).toHaveLength(1);
    expect(h.yAxis[0][0]).toBe(2.5);
    expect(h.yAxis[0][1]).toBeGreaterThan(2.5);
    expect(h.data).toEqual([
      [0, 0, 4],
      [1, 0, 1],
    ]);
  });

  it('answers empty arrays without any count', () => {
    expect(buildHeatmap(grid, [{ t: t(0), values: [1], counts: [0] }])).toEqual({ xAxis: [], yAxis: [], data: [] });
  });
});
