import { describe, expect, it } from 'vitest';
import { heatmapOption, type HeatmapData } from './heatmapOption';

const data = (fromMs: number, stepMs: number, n: number): HeatmapData => ({
  xAxis: Array.from({ length: n }, (_, i) => new Date(fromMs + i * stepMs).toISOString()),
  yAxis: [[0, 10]],
  data: [[0, 0, 1]],
});

const labelOf = (d: HeatmapData, i: number) => {
  const x = heatmapOption(d, '', 14).xAxis as { axisLabel: { formatter: (v: string) => string } };
  return x.axisLabel.formatter(d.xAxis[i]);
};

describe('heatmap time axis', () => {
  // Noon local time, so an hour on either side stays in the same day in every time zone.
  const noon = new Date(2026, 10, 27, 12, 0).getTime();

  it('labels an axis within one day by the time alone', () => {
    const d = data(noon - 3600_000, 60_000, 120);
    expect(labelOf(d, 0)).toMatch(/^\d\d:\d\d$/);
  });

  it('adds the date under the time when the axis spans days', () => {
    const d = data(noon - 2 * 86400_000, 3600_000, 49);
    expect(labelOf(d, 0)).toMatch(/^\d\d:\d\d\n11-25$/);
  });
});
