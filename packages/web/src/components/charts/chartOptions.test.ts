import { describe, expect, it } from 'vitest';
import {
  byteAxisStep,
  legendValues,
  metricChartOption,
  pctileOption,
  TOOLTIP_MAX_SERIES,
  tooltipHtml,
} from './chartOptions';
import { assignColors, PALETTE } from './palette';

describe('assignColors', () => {
  it('keeps explicit colours, drops duplicates, fills from the unused palette', () => {
    expect(assignColors([undefined, undefined])).toEqual([PALETTE[0], PALETTE[1]]);
    expect(assignColors([PALETTE[0], undefined])).toEqual([PALETTE[0], PALETTE[1]]);
    expect(assignColors(['#000', '#000'])).toEqual(['#000', PALETTE[0]]);
    expect(assignColors(Array(10).fill(undefined))[9]).toBe(PALETTE[0]);
  });
});

describe('tooltip', () => {
  const params = Array.from({ length: 25 }, (_, i) => ({
    seriesName: `s${i}`,
    seriesIndex: i,
    value: ['2024-01-01T00:00:00Z', 1_500_000],
    axisValue: '2024-01-01T00:00:00Z',
  }));
  it(`lists at most ${TOOLTIP_MAX_SERIES} series, formatted in their unit`, () => {
    const html = tooltipHtml(
      params,
      params.map(() => 'nanoseconds'),
    );
    expect(html.match(/<tr>/g)).toHaveLength(20);
    expect(html).toContain('1.5ms');
    expect(html).not.toContain('s20');
  });
  it('shows a gap (NaN in the chart data) as no value', () => {
    expect(tooltipHtml([{ seriesName: 'a', value: [0, NaN] }], [''])).toContain('>–<');
  });
  it('escapes names', () => {
    expect(tooltipHtml([{ seriesName: '<b>', value: 1 }], [''])).toContain('&#60;b&#62;');
  });
});

describe('legendValues', () => {
  it('computes avg, last, min and max, ignoring gaps', () => {
    expect(legendValues([1, null, 3, 2])).toEqual({ avg: 2, last: 2, min: 1, max: 3 });
  });
  it('has no values for a series with nothing measured (a metric that stopped reporting), not zeros', () => {
    const none = { avg: null, last: null, min: null, max: null };
    expect(legendValues([])).toEqual(none);
    expect(legendValues([null, null, NaN])).toEqual(none);
  });
  it('takes the min over the non-zero values (observed min ignores zeros)', () => {
    expect(legendValues([0, 4, null, 2, 0, 6])).toEqual({ avg: 2.4, last: 6, min: 2, max: 6 });
    expect(legendValues([0, -3, 5])).toMatchObject({ min: -3, max: 5 });
    expect(legendValues([3, 0])).toMatchObject({ last: 0, min: 3, max: 3 });
  });
  it('shows 0 as the min of a series of zeros only', () => {
    expect(legendValues([0, null, 0])).toEqual({ avg: 0, last: 0, min: 0, max: 0 });
  });
});

describe('metricChartOption', () => {
  const time = ['2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z'];
  it('makes one y-axis per unit and stacks when asked', () => {
    const opt = metricChartOption(
      time,
      [
        { name: 'rate', unit: '', values: [1, 2] },
        { name: 'p50', unit: 'nanoseconds', values: [5, 6] },
      ],
      { kind: 'stacked-bar' },
    ) as { yAxis: unknown[]; series: { type: string; stack?: string; yAxisIndex: number }[] };
    expect(opt.yAxis).toHaveLength(2);
    expect(opt.series.map((s) => [s.type, s.stack, s.yAxisIndex])).toEqual([
      ['bar', 'all', 0],
      ['bar', 'all', 1],
    ]);
  });
});

describe('metricChartOption data', () => {
  const time = Array.from({ length: 96 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 900_000).toISOString());
  const series = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      name: `s${i}`,
      unit: '',
      values: time.map((_, j) => (j === 3 ? null : i + j)),
    }));
  type Opt = { series: { data: Float64Array; large?: boolean }[] };
  const point = (data: Float64Array, i: number) => [data[2 * i], data[2 * i + 1]];

  it('gives the time axis epoch milliseconds in [time, value] pairs, with NaN where a bucket is empty', () => {
    const opt = metricChartOption(time, series(1), { kind: 'bar' }) as Opt;
    expect(opt.series[0].data).toBeInstanceOf(Float64Array);
    expect(point(opt.series[0].data, 0)).toEqual([Date.UTC(2024, 0, 1), 0]);
    expect(point(opt.series[0].data, 3)).toEqual([Date.UTC(2024, 0, 1) + 3 * 900_000, NaN]);
    const line = metricChartOption(time, series(1)) as Opt;
    expect(point(line.series[0].data, 1)).toEqual([Date.UTC(2024, 0, 1) + 900_000, 1]);
  });

  it("draws thousands of bars in ECharts' large mode, a few bars as shapes", () => {
    const many = metricChartOption(time, series(100), { kind: 'stacked-bar' }) as Opt;
    expect(many.series.every((s) => s.large === true)).toBe(true);
    const few = metricChartOption(time, series(3), { kind: 'stacked-bar' }) as Opt;
    expect(few.series.some((s) => s.large)).toBe(false);
    const lines = metricChartOption(time, series(100), { kind: 'line' }) as Opt;
    expect(lines.series.some((s) => s.large)).toBe(false);
  });
});

describe('pctileOption', () => {
  it('shows p50 and p90, hides p99 and max', () => {
    const opt = pctileOption({ time: ['t'], p50: [1], p90: [2], p99: [3], max: [4] }) as {
      legend: { selected: Record<string, boolean> };
      series: unknown[];
    };
    expect(opt.legend.selected).toEqual({ p50: true, p90: true, p99: false, max: false });
    expect(opt.series).toHaveLength(4);
  });
});

describe('byteAxisStep', () => {
  const GB = 1024 ** 3;
  it('steps a byte axis by a power of two bytes near a fifth of the span', () => {
    // 28 GB of memory: 8 GB steps (labels 8 GB, 16 GB, 24 GB), not ECharts' decimal 10 000 000 000.
    expect(byteAxisStep(28 * GB, 'bytes')).toBe(8 * GB);
    expect(byteAxisStep(17 * GB, 'bytes')).toBe(4 * GB);
    expect(byteAxisStep(40 * GB, 'bytes')).toBe(8 * GB);
    expect(byteAxisStep(2.5 * 1024 ** 2, 'bytes')).toBe(512 * 1024);
    expect(byteAxisStep(300, 'bytes')).toBe(64);
  });

  it('is in the axis unit for kilobytes..terabytes', () => {
    expect(byteAxisStep(28 * 1024, 'megabytes')).toBe(8 * 1024);
    expect(byteAxisStep(28, 'gigabytes')).toBe(8);
    expect(byteAxisStep(1.2, 'gigabytes')).toBe(0.25);
    expect(byteAxisStep(900, 'kilobytes')).toBe(256);
  });

  it('leaves other units, empty spans and sub-byte steps to ECharts', () => {
    expect(byteAxisStep(28 * GB, '')).toBeUndefined();
    expect(byteAxisStep(1000, 'milliseconds')).toBeUndefined();
    expect(byteAxisStep(0, 'bytes')).toBeUndefined();
    expect(byteAxisStep(Number.NaN, 'bytes')).toBeUndefined();
    expect(byteAxisStep(3, 'bytes')).toBeUndefined();
  });

  it('a byte axis of a stacked chart steps by its stacked total; other axes get no step', () => {
    const time = ['2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z'];
    const opt = metricChartOption(
      time,
      [
        { name: 'used', unit: 'bytes', values: [10 * GB, 12 * GB] },
        { name: 'cached', unit: 'bytes', values: [14 * GB, 16 * GB] },
        { name: 'rate', unit: '', values: [1, 2] },
      ],
      { kind: 'stacked-area' },
    ) as { yAxis: { minInterval?: number; maxInterval?: number }[] };
    expect(opt.yAxis[0]).toMatchObject({ minInterval: 8 * GB, maxInterval: 8 * GB });
    expect(opt.yAxis[1].minInterval).toBeUndefined();
    const lines = metricChartOption(time, [
      { name: 'used', unit: 'bytes', values: [10 * GB, 12 * GB] },
      { name: 'cached', unit: 'bytes', values: [14 * GB, 16 * GB] },
    ]) as { yAxis: { minInterval?: number }[] };
    expect(lines.yAxis[0].minInterval).toBe(4 * GB);
  });
});
