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
  // The axis reaches the bounds even when every value is far inside (or outside) of them.
  // A fixed step (a byte axis's binary one) keeps its ticks round: the stretched ends go out to it.
  const stretch = (axis: Record<string, unknown>) => {
    const step = typeof axis.minInterval === 'number' && axis.minInterval === axis.maxInterval ? axis.minInterval : 0;
    const down = (x: number) => (step ? Math.floor(x / step) * step : x);
    const up = (x: number) => (step ? Math.ceil(x / step) * step : x);
    return {
      ...axis,
      min: (v: { min: number }) => down(Math.min(v.min, min ?? v.min, max ?? v.min)),
      max: (v: { max: number }) => up(Math.max(v.max, max ?? v.max, min ?? v.max)),
    };
  };
  return {
    ...option,
    series: [{ ...first, markArea }, ...rest],
    yAxis: axes.map((a, i) => (i === axisIndex ? stretch(a) : a)),
  };
}
