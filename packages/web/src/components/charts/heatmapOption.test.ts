import { HeatmapChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { metricChartOption } from './chartOptions';
import { heatmapOption, type HeatmapData } from './heatmapOption';

/** Rendered server-side to SVG by ECharts itself (its development build, with its checks). */
echarts.use([HeatmapChart, LineChart, GridComponent, TooltipComponent, VisualMapComponent, SVGRenderer]);

function labels(option: Record<string, unknown>): string[] {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 900, height: 300 });
  try {
    chart.setOption(option);
    return [...chart.renderToSVGString().matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  } finally {
    chart.dispose();
  }
}

// An hour of one-minute buckets starting at an odd minute (10:03), as a range picked at 10:03 gives.
const start = new Date(2026, 10, 27, 10, 3).getTime();
const time = Array.from({ length: 60 }, (_, i) => new Date(start + i * 60_000).toISOString());
const heatmap: HeatmapData = {
  xAxis: time,
  yAxis: [
    [0, 250],
    [250, 500],
    [500, 1000],
  ],
  data: time.map((_, i) => [i, i % 3, 1 + i] as [number, number, number]),
};
const isTime = (s: string) => /^\d\d:\d\d$/.test(s);

describe('heatmap axes', () => {
  it("labels time as the line charts do: the same round times (10:10, 10:20...), not every nth bucket's start", () => {
    const heat = labels(heatmapOption(heatmap, 'microseconds', 14)).filter(isTime);
    const line = labels(
      metricChartOption(time, [{ name: 'p50', unit: 'microseconds', values: time.map((_, i) => i) }]),
    ).filter(isTime);
    expect(heat.length).toBeGreaterThan(2);
    expect(line.length).toBeGreaterThan(2);
    for (const l of heat) expect(line).toContain(l);
    expect(heat).not.toContain('10:03');
  });

  it('labels the bins in their unit', () => {
    const text = labels(heatmapOption(heatmap, 'microseconds', 14));
    expect(text).toEqual(expect.arrayContaining(['0', '250µs', '500µs']));
  });
});
