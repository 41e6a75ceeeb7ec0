/**
 * Line data over shared time stamps where null is a gap (a bucket with nothing to measure). A value
 * between two gaps would be a line of no length, so it gets a dot; other points stay plain. A
 * series with dots needs `showSymbol: true` (and `symbol: 'none'` for the plain points); only those
 * should ask for it (`lineSeriesData`), since symbols cost an element per point.
 */
export type LinePoint<T extends string | number = string | number> =
  [T, number | null] | { value: [T, number]; symbol: 'circle'; symbolSize: number };

export function lineData<T extends string | number>(
  time: readonly T[],
  values: readonly (number | null | undefined)[],
  dotSize = 4,
): LinePoint<T>[] {
  const at = (i: number) => (typeof values[i] === 'number' ? values[i] : null);
  return time.map((t, i) => {
    const v = at(i);
    if (v !== null && at(i - 1) === null && at(i + 1) === null)
      return { value: [t, v], symbol: 'circle', symbolSize: dotSize };
    return [t, v];
  });
}

/** Line data and whether it has dots (`showSymbol`), for a series' option. */
export function lineSeriesData(
  time: readonly (string | number)[],
  values: readonly (number | null | undefined)[],
  dotSize?: number,
) {
  const data = lineData(time, values, dotSize);
  return { data, showSymbol: data.some((p) => !Array.isArray(p)), symbol: 'none' as const };
}
