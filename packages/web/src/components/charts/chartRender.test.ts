import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { metricChartOption, pctileOption, rateOption, type ChartKind } from './chartOptions';

/**
 * The options as ECharts takes them: rendered server-side to SVG by the library itself, in its
 * development build, whose checks (a typed array's dimensions, option shapes) the production
 * bundle leaves out.
 */
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

function render(option: Record<string, unknown>): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 300 });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

const time = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2024, 0, 1, 0, i * 5)).toISOString());
// A gap, a lone value between gaps, then a run.
const values = [1, 2, null, 4, null, 6, 7, 8, null, null, 11, 12];

describe('chart options render in ECharts', () => {
  it.each<ChartKind>(['line', 'area', 'bar', 'stacked-area', 'stacked-bar'])('%s over two units', (kind) => {
    const svg = render(
      metricChartOption(
        time,
        [
          { name: 'a', unit: 'bytes', values },
          { name: 'b', unit: '', values: values.map((v) => (v === null ? null : v * 2)) },
        ],
        { kind },
      ),
    );
    expect(svg).toContain('<path');
  });

  it('labels a byte axis at round binary values: 8 GB, 16 GB, 24 GB, not 9.3 GB, 19 GB, 28 GB', () => {
    const GB = 1024 ** 3;
    const memory = time.map((_, i) => 20 * GB + i * 0.7 * GB);
    const svg = render(metricChartOption(time, [{ name: 'used', unit: 'bytes', values: memory }]));
    const labels = [...svg.matchAll(/<text[^>]*>([^<]*GB)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['8 GB', '16 GB', '24 GB', '32 GB']);
  });

  it('labels a small plain axis with distinct ticks: 0.0015, 0.002, 0.0025, not 0.002 twice', () => {
    // An event loop utilization between 0.17% and 0.26% (a ratio without unit).
    const elu = time.map((_, i) => 0.0017 + (i % 4) * 0.0003);
    const svg = render(metricChartOption(time, [{ name: 'utilization', unit: '', values: elu }]));
    const labels = [...svg.matchAll(/<text[^>]*>(0(?:\.\d+)?)<\/text>/g)].map((m) => m[1]);
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('0.0015');
  });

  it('many bars in large mode', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ name: `s${i}`, unit: '', values }));
    expect(render(metricChartOption(time, many, { kind: 'stacked-bar' }))).toContain('<path');
  });

  it('dots a lone value: one symbol, at the value between two gaps', () => {
    const symbols = (svg: string) => [...svg.matchAll(/ecmeta_data_index="(\d+)"/g)].map((m) => Number(m[1]));
    const six = time.slice(0, 6);
    expect(
      symbols(render(metricChartOption(six, [{ name: 'a', unit: '', values: [null, 5, null, 1, 2, 3] }]))),
    ).toEqual([1]);
    expect(symbols(render(metricChartOption(six, [{ name: 'a', unit: '', values: [4, 5, 6, 1, 2, 3] }])))).toEqual([]);
  });

  it('percentiles and rates', () => {
    const d = { time, p50: values, p90: values, p99: values, max: values, rate: [1, 2, 3], errorRate: [0, 1] };
    expect(render(pctileOption(d))).toContain('<path');
    expect(render(rateOption(d))).toContain('<path');
  });
});
