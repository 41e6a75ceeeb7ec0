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

const pad2 = (n: number) => String(n).padStart(2, '0');
const dayOf = (iso: string) => new Date(iso).toDateString();
/** "HH:mm", with "MM-DD" under it when the axis spans more than one day. */
const axisTime = (withDate: boolean) => (iso: string) => {
  const d = new Date(iso);
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  return withDate ? `${time}\n${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}` : time;
};

/** Category x (time) and y (bins) axes, a hidden visual map over the count range, white cell borders. */
export function heatmapOption(d: HeatmapData, unit: string, size: number): Record<string, unknown> {
  const padding = size >= 14 ? 2 : 1.5;
  const counts = d.data.map((p) => p[2]);
  const max = counts.length ? Math.max(...counts) : 1;
  const min = counts.length ? Math.min(...counts) : 0;
  const every = Math.max(1, Math.ceil(d.xAxis.length / 10));
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
    xAxis: {
      type: 'category',
      data: d.xAxis,
      offset: padding,
      axisLabel: {
        interval: every - 1,
        formatter: axisTime(d.xAxis.length > 0 && dayOf(d.xAxis[0]) !== dayOf(d.xAxis[d.xAxis.length - 1])),
        lineHeight: 14,
      },
      splitArea: { show: false },
    },
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
