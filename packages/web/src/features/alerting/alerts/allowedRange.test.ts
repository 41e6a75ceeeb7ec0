import { LineChart } from 'echarts/charts';
import { GridComponent, MarkAreaComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { metricChartOption } from '../../../components/charts/chartOptions';
import { ALLOWED_RANGE_NAME, niceStep, roundOut, withAllowedRange } from './allowedRange';

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
    // Values past the top bound: the ends go out to the step (2) the axis is divided by.
    expect(axis.max({ min: 2, max: 9 })).toBe(10);
    expect(axis.min({ min: 2, max: 9 })).toBe(0);
  });
  it('ends a stretched axis on a tick, not on the bound or the data (159 an inch above the 150 tick)', () => {
    type Axis = Record<string, (v: { min: number; max: number }) => number | null>;
    const axis = (withAllowedRange(option(), { min: null, max: 159 }).yAxis as Axis[])[0];
    // Before, the axis ended at 159 exactly, its label crowding the 150 tick under it.
    expect(axis.max({ min: 100, max: 150 })).toBe(160);
    expect(axis.min({ min: 100, max: 150 })).toBe(100);
    // A step ECharts takes for 100..160 (a fifth of the span, rounded): 10, so 160 is a tick.
    expect(niceStep((160 - 100) / 5)).toBe(10);
    // Values past the bound at both ends: ECharts' own rounded ends (null leaves them to it);
    // before, the axis ended at the data, 2 and 20, above and below the 3 and 18 ticks.
    const past = (withAllowedRange(option(), { min: null, max: 12 }).yAxis as Axis[])[0];
    expect([past.min({ min: 2, max: 20 }), past.max({ min: 2, max: 20 })]).toEqual([null, null]);
  });
  it('rounds ends out to a step that holds for the rounded span', () => {
    expect(roundOut(0.13, 0.97)).toEqual([0, 1]);
    expect(roundOut(3, 1234)).toEqual([0, 1500]);
    for (const [lo, hi] of [
      [0.13, 0.97],
      [3, 1234],
      [-7, 159],
      [100, 159],
    ]) {
      const [a, b] = roundOut(lo, hi);
      const step = niceStep((b - a) / 5);
      expect(Number.isInteger(+(a / step).toFixed(9)) && Number.isInteger(+(b / step).toFixed(9))).toBe(true);
      expect(a <= lo && b >= hi).toBe(true);
    }
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

describe('the allowed range on a chart ECharts draws', () => {
  echarts.use([LineChart, GridComponent, MarkAreaComponent, SVGRenderer]);
  /** The y-axis labels of the chart as ECharts renders it (server-side, to SVG). */
  function yLabels(values: number[], bounds: { min: number | null; max: number | null }): string[] {
    const time = values.map((_, i) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString());
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 300 });
    try {
      chart.setOption(withAllowedRange(metricChartOption(time, [{ name: 'depth', unit: '', values }]), bounds));
      const svg = chart.renderToSVGString();
      // The y labels sit at the left edge (text-anchor end); the time labels are centred below.
      return [...svg.matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    } finally {
      chart.dispose();
    }
  }
  it('labels the top and bottom of the axis with ticks of its step, not the bound or the data', () => {
    // Before: 100, 110, ..., 150, 159 (the bound, an inch above 150); and 2, 3, ..., 18, 20 (the data).
    expect(yLabels([100, 120, 150, 130], { min: null, max: 159 })).toEqual([
      '100',
      '110',
      '120',
      '130',
      '140',
      '150',
      '160',
    ]);
    expect(yLabels([2, 9, 20, 18], { min: null, max: 12 })).toEqual(['0', '5', '10', '15', '20']);
  });
});
