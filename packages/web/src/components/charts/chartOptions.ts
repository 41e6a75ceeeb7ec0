import { BYTE_SCALE } from '@lantern/shared';
import { formatDateTime } from '../../lib/format/dateTime';
import { formatAxisTick, formatMetric, formatUnit } from '../../lib/format/number';
import { truncateMiddle } from '../../lib/text/truncate';
import { linePairs, lineSeriesData, PAIR_DIMENSIONS } from './lineData';
import { assignColors } from './palette';

/**
 * Pure builders of ECharts options (reference frontend §3): one timeseries chart for line, area,
 * bar and stacked kinds with one y-axis per unit, the percentile pair, and the
 * tooltip with at most 20 series. Kept free of React so the rules are unit-tested.
 */
export type ChartKind = 'line' | 'area' | 'bar' | 'stacked-area' | 'stacked-bar';

export interface Series {
  name: string;
  unit: string;
  values: (number | null)[];
  color?: string;
}

/** Tooltips list at most this many series (spec §9). */
export const TOOLTIP_MAX_SERIES = 20;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface TooltipParam {
  marker?: string;
  seriesName?: string;
  seriesIndex?: number;
  axisValueLabel?: string;
  axisValue?: string | number;
  value?: unknown;
  data?: unknown;
}

/** The axis tooltip: the time, then one row per series (name middle-truncated to 60, value in its unit). */
export function tooltipHtml(params: TooltipParam[], units: string[], showTime = true): string {
  if (params.length === 0) return '';
  const first = params[0];
  const time = first.axisValue !== undefined ? formatDateTime(new Date(first.axisValue)) : (first.axisValueLabel ?? '');
  const rows = params.slice(0, TOOLTIP_MAX_SERIES).map((p) => {
    const raw: unknown = Array.isArray(p.value) ? (p.value as unknown[])[1] : p.value;
    const unit = units[p.seriesIndex ?? 0] ?? '';
    return `<tr><td>${p.marker ?? ''}${escapeHtml(truncateMiddle(p.seriesName ?? '', 60))}</td><td style="text-align:right;padding-left:15px;font-weight:600">${escapeHtml(formatMetric(typeof raw === 'number' ? raw : null, unit))}</td></tr>`;
  });
  return `<div class="chart-tooltip" style="font-size:0.85rem">${showTime ? `<div style="font-weight:600">${escapeHtml(time)}</div>` : ''}<table>${rows.join('')}</table></div>`;
}

/**
 * Per-series legend values (client side, reference §3.5). The observed min ignores zeros (spec
 * platform §9, "Observed min: X (zeroes excluded)" in reference frontend §1.3.14): a counter's idle
 * minutes would otherwise pin it at 0. A series of zeros only has 0 as its min. A series with no
 * value at all has none of them (null, shown as '–').
 */
/** Whether a series has a value somewhere in its range (a bucket with something measured). */
export const hasValue = (s: { values: readonly (number | null)[] }) =>
  s.values.some((v) => typeof v === 'number' && Number.isFinite(v));

export interface LegendStats {
  avg: number | null;
  last: number | null;
  min: number | null;
  max: number | null;
}

export function legendValues(values: (number | null)[]): LegendStats {
  const nums = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  // Nothing measured in the range (a metric that stopped reporting): no value, not a made-up 0.
  if (nums.length === 0) return { avg: null, last: null, min: null, max: null };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const n of nums) {
    sum += n;
    if (n > max) max = n;
    if (n !== 0 && n < min) min = n;
  }
  return { avg: sum / nums.length, last: nums[nums.length - 1], min: min === Infinity ? 0 : min, max };
}

/** Bar charts with more bars than this are drawn in ECharts' large mode. */
const LARGE_BARS = 2000;

const BASE = { animation: false, textStyle: { fontFamily: 'Roboto, sans-serif' } };

/** Epoch milliseconds: the time axis would parse an ISO string for every point of every series. */
const epochMs = (time: readonly string[]) => time.map((t) => Date.parse(t));

/** About this many intervals on a value axis (ECharts' default `splitNumber`). */
const AXIS_SPLITS = 5;

/**
 * The tick step of a byte axis, in the axis unit: a power of two bytes near a fifth of the span
 * (8 GB, 256 MB, 64 KB...), so that ticks fall on round binary values and the 1024-based labels read
 * 8 GB, 16 GB, 24 GB, not 9.3 GB, 19 GB, 28 GB (ECharts' decimal steps). Undefined for other units,
 * an empty span, or a step under one byte (ECharts' own ticks then).
 */
export function byteAxisStep(span: number, unit: string): number | undefined {
  const scale = BYTE_SCALE[unit];
  if (scale === undefined || !Number.isFinite(span) || span <= 0) return undefined;
  const raw = (span * scale) / AXIS_SPLITS;
  if (raw < 1) return undefined;
  return 2 ** Math.ceil(Math.log2(raw) - 1e-9) / scale;
}

/** The span a value axis covers (zero included, as ECharts' value axes do): stacked, the sums per time. */
function axisSpan(series: readonly Series[], stacked: boolean): number {
  let lo = 0;
  let hi = 0;
  const sums = (sign: 1 | -1) => {
    const len = Math.max(0, ...series.map((s) => s.values.length));
    return Array.from({ length: len }, (_, t) =>
      series.reduce((acc, s) => {
        const v = s.values[t];
        return typeof v === 'number' && Number.isFinite(v) && Math.sign(v) === sign ? acc + v : acc;
      }, 0),
    );
  };
  const values = stacked
    ? [...sums(1), ...sums(-1)]
    : series.flatMap((s) => s.values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
  for (const v of values) {
    if (v > hi) hi = v;
    if (v < lo) lo = v;
  }
  return hi - lo;
}

/** A byte axis's fixed step (`minInterval` = `maxInterval`: ECharts then rounds the extent to it). */
function byteAxisInterval(series: readonly Series[], unit: string, stacked: boolean) {
  const step = BYTE_SCALE[unit] === undefined ? undefined : byteAxisStep(axisSpan(series, stacked), unit);
  return step === undefined ? {} : { minInterval: step, maxInterval: step };
}

/** Line/area/bar/stacked chart over shared time stamps; one y-axis per distinct unit. */
/**
 * The plot fills its container (grid `bottom`, not a height), so a chart whose container changes
 * height (its legend measured after the first paint) is resized, not given a new option.
 */
export function metricChartOption(
  time: string[],
  series: Series[],
  opts: { kind?: ChartKind } = {},
): Record<string, unknown> {
  const kind = opts.kind ?? 'line';
  const units = [...new Set(series.map((s) => s.unit))];
  const colors = assignColors(series.map((s) => s.color));
  const seriesUnits = series.map((s) => s.unit);
  const stacked = kind === 'stacked-area' || kind === 'stacked-bar';
  const isBar = kind === 'bar' || kind === 'stacked-bar';
  const hasArea = kind === 'area' || kind === 'stacked-area';
  const ms = epochMs(time);
  // Thousands of bars (100 series of 96 buckets) are drawn as one path per series, not a shape each.
  const large = isBar && series.length * time.length > LARGE_BARS ? { large: true, largeThreshold: 0 } : {};
  return {
    ...BASE,
    color: colors,
    grid: { top: 20, left: 50, right: units.length > 1 ? 50 : 20, bottom: 30 },
    tooltip: {
      trigger: 'axis',
      appendToBody: true,
      axisPointer: { type: 'cross' },
      formatter: (params: TooltipParam[]) => tooltipHtml(params, seriesUnits),
    },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true }, axisPointer: { label: { show: false } } },
    yAxis: units.map((unit, i) => ({
      type: 'value',
      ...byteAxisInterval(
        series.filter((s) => s.unit === unit),
        unit,
        stacked,
      ),
      id: unit || 'none',
      position: i === 0 ? 'left' : 'right',
      splitLine: { show: i === 0 },
      axisLabel: { formatter: (v: number) => formatAxisTick(v, unit) },
      axisPointer: { label: { formatter: ({ value }: { value: number }) => formatUnit(value, unit) } },
    })),
    series: series.map((s, i) => ({
      name: s.name,
      type: isBar ? 'bar' : 'line',
      yAxisIndex: units.indexOf(s.unit),
      // A null is a bucket with nothing to measure: a gap, not a line through it.
      ...(isBar
        ? { data: linePairs(ms, s.values), dimensions: PAIR_DIMENSIONS, showSymbol: false, ...large }
        : lineSeriesData(ms, s.values)),
      connectNulls: false,
      emphasis: { focus: 'series' },
      color: colors[i],
      ...(isBar ? {} : { lineStyle: { width: 2 } }),
      ...(hasArea ? { areaStyle: { opacity: 0.15 }, z: series.length - i } : {}),
      ...(stacked ? { stack: 'all' } : {}),
    })),
  };
}

export interface PctileData {
  time: string[];
  /** Null in a bucket without spans (a gap). */
  p50?: (number | null)[];
  p90?: (number | null)[];
  p99?: (number | null)[];
  max?: (number | null)[];
  rate?: number[];
  errorRate?: number[];
}

export const PCTILE_COLORS = { p50: '#81C784', p90: '#FF9800', p99: '#F06292', max: '#D32F2F' } as const;

/** Percentiles over time: p50 and p90 shown, p99 and max in the legend but hidden (spec §2 span card). */
export function pctileOption(d: PctileData): Record<string, unknown> {
  const keys = (['p50', 'p90', 'p99', 'max'] as const).filter((k) => d[k]);
  const ms = epochMs(d.time);
  return {
    ...BASE,
    grid: { top: 30, left: 60, right: 30, height: 75 },
    legend: {
      type: 'scroll',
      top: 0,
      left: 'center',
      width: '90%',
      selected: { p50: true, p90: true, p99: false, max: false },
    },
    tooltip: {
      trigger: 'axis',
      appendToBody: true,
      axisPointer: { type: 'cross' },
      formatter: (p: TooltipParam[]) =>
        tooltipHtml(
          p,
          keys.map(() => 'nanoseconds'),
        ),
    },
    xAxis: {
      type: 'time',
      axisTick: { show: false },
      axisLabel: { show: false },
      splitLine: { show: false },
      axisPointer: { label: { show: false } },
    },
    yAxis: {
      type: 'value',
      splitNumber: 2,
      splitLine: { show: false },
      axisLabel: { formatter: (v: number) => formatUnit(v, 'nanoseconds') },
    },
    series: keys.map((k) => ({
      name: k,
      type: 'line',
      color: PCTILE_COLORS[k],
      ...lineSeriesData(ms, d[k]!),
      areaStyle: {
        color: {
          type: 'linear',
          x: 0,
          y: 0,
          x2: 0,
          y2: 1,
          colorStops: [
            { offset: 0, color: PCTILE_COLORS[k] },
            { offset: 1, color: '#ffe' },
          ],
        },
        opacity: 0.3,
      },
    })),
  };
}

/** One value per time stamp, 0 where the answer has none. */
const counts = (d: PctileData, values: number[] | undefined) => ({
  data: linePairs(
    epochMs(d.time),
    d.time.map((_, i) => values?.[i] ?? 0),
  ),
  dimensions: PAIR_DIMENSIONS,
});

/** Spans per minute and errors per minute under the percentile chart. */
export function rateOption(d: PctileData): Record<string, unknown> {
  return {
    ...BASE,
    grid: { top: 15, left: 60, right: 30, height: 70 },
    tooltip: {
      trigger: 'axis',
      appendToBody: true,
      axisPointer: { type: 'cross' },
      formatter: (p: TooltipParam[]) => tooltipHtml(p, ['', '']),
    },
    xAxis: { type: 'time', splitLine: { show: false } },
    yAxis: {
      type: 'value',
      splitNumber: 2,
      splitLine: { show: false },
      axisLabel: { formatter: (v: number) => formatAxisTick(v, '') },
    },
    series: [
      {
        name: 'count per min',
        type: 'line',
        symbol: 'none',
        color: '#42A5F5',
        areaStyle: { opacity: 0.15 },
        ...counts(d, d.rate),
      },
      {
        name: 'errors per min',
        type: 'line',
        symbol: 'none',
        color: '#F44336',
        ...counts(d, d.errorRate),
      },
    ],
  };
}

/** Events have no durations: one bar chart of events per minute. */
export function eventRateOption(d: PctileData): Record<string, unknown> {
  return {
    ...BASE,
    grid: { top: 15, left: 60, right: 30, height: 120 },
    tooltip: { trigger: 'axis', appendToBody: true, formatter: (p: TooltipParam[]) => tooltipHtml(p, ['']) },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatAxisTick(v, '') } },
    series: [{ name: 'events per min', type: 'bar', color: '#1E88E5', ...counts(d, d.rate) }],
  };
}
