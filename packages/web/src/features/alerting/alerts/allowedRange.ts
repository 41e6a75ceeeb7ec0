/**
 * The allowed range of a metric monitor drawn on a chart (reference frontend §3.6): a green,
 * dashed-bordered `markArea` on the first series from min (or 0) to max (or the top), and a y-axis
 * stretched to show both bounds. Pure: it returns a new echarts option.
 */
export interface Bounds {
  min: number | null;
  max: number | null;
}

export const ALLOWED_RANGE_NAME = 'Allowed values range';

type Option = Record<string, unknown> & {
  series?: Record<string, unknown>[];
  yAxis?: Record<string, unknown>[] | Record<string, unknown>;
};

export function withAllowedRange(option: Option, bounds: Bounds): Option {
  const { min, max } = bounds;
  if ((min === null && max === null) || !option.series?.length) return option;
  const markArea = {
    silent: true,
    itemStyle: { color: 'rgba(76, 175, 80, 0.2)', borderWidth: 1, borderType: 'dashed', borderColor: '#4CAF50' },
    data: [
      [
        { name: ALLOWED_RANGE_NAME, xAxis: 'min', yAxis: min ?? 0 },
        { xAxis: 'max', yAxis: max ?? 'max' },
      ],
    ],
  };
  const [first, ...rest] = option.series;
  const axes = Array.isArray(option.yAxis) ? option.yAxis : option.yAxis ? [option.yAxis] : [];
  const axisIndex = typeof first.yAxisIndex === 'number' ? first.yAxisIndex : 0;
  // The axis reaches the bounds even when every value is far inside (or outside) of them. Its ends
  // are then fixed, so ECharts does not round them: they go out to a round step here, the one
  // ECharts then divides the axis by, so the end labels are ticks (not 159 an inch above 150).
  // A fixed step (a byte axis's binary one) keeps its ticks round: the stretched ends go out to it.
  // When the values reach past both bounds, ECharts' own rounded ends are left alone.
  const stretch = (axis: Record<string, unknown>) => {
    const fixed = typeof axis.minInterval === 'number' && axis.minInterval === axis.maxInterval ? axis.minInterval : 0;
    const ends = (v: { min: number; max: number }): [number, number] | null => {
      const lo = Math.min(v.min, min ?? v.min, max ?? v.min);
      const hi = Math.max(v.max, max ?? v.max, min ?? v.max);
      if (lo === v.min && hi === v.max) return null;
      return roundOut(lo, hi, fixed);
    };
    return {
      ...axis,
      min: (v: { min: number; max: number }) => ends(v)?.[0] ?? null,
      max: (v: { min: number; max: number }) => ends(v)?.[1] ?? null,
    };
  };
  return {
    ...option,
    series: [{ ...first, markArea }, ...rest],
    yAxis: axes.map((a, i) => (i === axisIndex ? stretch(a) : a)),
  };
}

/** ECharts' splitNumber default: about this many intervals on a value axis. */
const AXIS_SPLITS = 5;

/** ECharts' rounded "nice" step (`number.nice(x, true)`): 1, 2, 3 or 5 times a power of ten. */
export function niceStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  let exp = Math.floor(Math.log10(x));
  if (x / 10 ** exp >= 10) exp++;
  const f = x / 10 ** exp;
  const nf = f < 1.5 ? 1 : f < 2.5 ? 2 : f < 4 ? 3 : f < 7 ? 5 : 10;
  return +(nf * 10 ** exp).toPrecision(12);
}

/**
 * `lo`..`hi` widened to multiples of a step that ECharts, given the widened ends, divides the axis
 * by (`fixed`, else the nice step of a fifth of the span, found again until it holds).
 */
export function roundOut(lo: number, hi: number, fixed = 0): [number, number] {
  let step = fixed || niceStep((hi - lo) / AXIS_SPLITS);
  let ends: [number, number] = [lo, hi];
  for (let i = 0; i < 5; i++) {
    ends = [+(Math.floor(lo / step) * step).toPrecision(12), +(Math.ceil(hi / step) * step).toPrecision(12)];
    const again = fixed || niceStep((ends[1] - ends[0]) / AXIS_SPLITS);
    if (again === step) break;
    step = again;
  }
  return ends;
}
