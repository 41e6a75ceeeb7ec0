import { formatDateTime } from '../../lib/format/dateTime';
import { formatUnit } from '../../lib/format/number';

/** The heatmap answer of `GET /metrics/:pid/heatmap`: x = time buckets, y = [lo, hi) bins, data = [x, y, count]. */
export interface HeatmapData {
  xAxis: string[];
  yAxis: [number, number][];
  data: [number, number, number][];
}

/** Cell size (spec §4): 14 px when the container is wider than 800 px, else 10. */
export const heatmapCellSize = (width: number) => (width > 800 ? 14 : 10);

/** Chart height for a heatmap: one cell per bin plus room for the axes (reference frontend §3.7). */
export const heatmapHeight = (d: HeatmapData, size: number) => size * (d.yAxis.length || 16) + 50;

/** The length of the last bucket: the step between buckets (a minute when there is one bucket). */
const bucketMs = (times: readonly number[]) => (times.length > 1 ? times[1] - times[0] : 60_000);

/**
 * Category x (time buckets) and y (bins, labelled in the unit) axes for the cells, a hidden visual
 * map over the count range, white cell borders. The time labels come from a second x axis of type
 * time over the same span (from the first bucket's start to the last one's end), so they fall on
 * the same round times, in the same format, as the line charts' on the same dashboard.
 */
export function heatmapOption(d: HeatmapData, unit: string, size: number): Record<string, unknown> {
  const padding = size >= 14 ? 2 : 1.5;
  const counts = d.data.map((p) => p[2]);
  const max = counts.length ? Math.max(...counts) : 1;
  const min = counts.length ? Math.min(...counts) : 0;
  const times = d.xAxis.map((t) => Date.parse(t));
  return {
    animation: false,
    textStyle: { fontFamily: 'Roboto, sans-serif' },
    grid: { top: 15, left: 60, right: 20, bottom: 35 },
    tooltip: {
      appendToBody: true,
      formatter: ({ value }: { value: [number, number, number] }) => {
        const [x, y, n] = value;
        const [lo, hi] = d.yAxis[y] ?? [0, 0];
        return `<b>${n} occurrences</b><br/>${formatUnit(lo, unit)} - ${formatUnit(hi, unit)}<br/>${formatDateTime(new Date(d.xAxis[x]))}`;
      },
    },
    xAxis: [
      {
        type: 'category',
        data: d.xAxis,
        offset: padding,
        axisLabel: { show: false },
        axisTick: { show: false },
        splitArea: { show: false },
      },
      {
        type: 'time',
        position: 'bottom',
        min: times[0],
        max: times.length ? times[times.length - 1] + bucketMs(times) : undefined,
        offset: padding,
        axisLine: { show: false },
        axisLabel: { hideOverlap: true },
        splitLine: { show: false },
      },
    ],
    yAxis: {
      type: 'category',
      data: d.yAxis.map(([lo]) => formatUnit(lo, unit)),
      offset: padding,
      axisLabel: { hideOverlap: true, fontSize: 11 },
      splitArea: { show: false },
    },
    visualMap: { show: false, min, max: Math.max(max, min + 1), inRange: { color: ['#E3F2FD', '#42A5F5', '#0D47A1'] } },
    series: [
      {
        type: 'heatmap',
        data: d.data,
        itemStyle: { borderColor: '#fff', borderWidth: padding },
        emphasis: { itemStyle: { shadowBlur: 10, shadowColor: 'rgba(0, 0, 0, 0.5)' } },
      },
    ],
  };
}
