/**
 * Line data over shared time stamps (epoch milliseconds) as one `Float64Array` of `[time, value]`
 * pairs, NaN where a bucket has nothing to measure (a gap). ECharts keeps a typed array as it is
 * (no clone of the option's data, no array per point) and reads it straight into its data store:
 * a chart of 100 series x 96 buckets would otherwise hand it 9,600 small arrays.
 */
/** What a series with `linePairs` data declares (ECharts cannot tell a typed array's shape itself). */
export const PAIR_DIMENSIONS = ['time', 'value'];

export function linePairs(time: readonly number[], values: readonly (number | null | undefined)[]): Float64Array {
  const out = new Float64Array(time.length * 2);
  for (let i = 0; i < time.length; i++) {
    const v = values[i];
    out[2 * i] = time[i];
    out[2 * i + 1] = typeof v === 'number' ? v : NaN;
  }
  return out;
}

/** Indexes of the values between two gaps (or a gap and an end): a line of no length there. */
export function lonePoints(values: readonly (number | null | undefined)[], count = values.length): number[] {
  const has = (i: number) => i >= 0 && i < count && typeof values[i] === 'number';
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (has(i) && !has(i - 1) && !has(i + 1)) out.push(i);
  return out;
}

/**
 * A line series' data and symbols: a value between two gaps gets a dot (it would draw nothing),
 * other points stay plain. Symbols cost an element per point, so only a series with dots shows
 * them, through a per-point symbol that is 'none' except at its dots.
 */
export function lineSeriesData(
  time: readonly number[],
  values: readonly (number | null | undefined)[],
  dotSize = 4,
): { data: Float64Array; dimensions: string[]; showSymbol: boolean; symbol: LineSymbol; symbolSize: number } {
  const data = linePairs(time, values);
  const dots = new Set(lonePoints(values, time.length));
  if (dots.size === 0)
    return { data, dimensions: PAIR_DIMENSIONS, showSymbol: false, symbol: 'none', symbolSize: dotSize };
  return {
    data,
    dimensions: PAIR_DIMENSIONS,
    showSymbol: true,
    symbol: (_value, params) => (dots.has(params.dataIndex) ? 'circle' : 'none'),
    symbolSize: dotSize,
  };
}

export type LineSymbol = string | ((value: unknown, params: { dataIndex: number }) => string);
