import { legendValues } from './chartOptions';

/** A value column of a legend (reference frontend §3.5). */
export type LegendValue = 'avg' | 'last' | 'min' | 'max';

/** What a table legend is sorted by: the series name or one of its values. */
export type LegendSortKey = 'name' | LegendValue;

export interface LegendSort {
  key: LegendSortKey;
  dir: 'asc' | 'desc';
}

/** The metric monitor preview's legend (spec platform §2.9): max, largest first. */
export const MONITOR_LEGEND_SORT: LegendSort = { key: 'max', dir: 'desc' };

const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * The series in legend order: by name, or by the value the legend shows for the key (min leaves
 * zeroes out, as the column does); ties go by name. The caller pages (and plots) this order, so
 * the first page holds the top of the sort. A new array; the input is left as it is.
 */
export function sortLegendSeries<T extends { name: string; values: readonly (number | null)[] }>(
  series: readonly T[],
  sort: LegendSort,
): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const { key } = sort;
  if (key === 'name') return [...series].sort((a, b) => sign * byName(a.name, b.name));
  const keyed = series.map((s) => ({ s, v: legendValues([...s.values])[key] }));
  // A series with no value in the range goes last, whichever way the column is sorted.
  keyed.sort((a, b) => {
    if (a.v === b.v) return byName(a.s.name, b.s.name);
    if (a.v === null || b.v === null) return a.v === null ? 1 : -1;
    return sign * (a.v - b.v);
  });
  return keyed.map((k) => k.s);
}

/**
 * The sort after a click on a column's header: the sorted column flips; another column (or any,
 * while the legend keeps the order it was given) starts with names A to Z and values largest first.
 */
export function nextLegendSort(current: LegendSort | undefined, key: LegendSortKey): LegendSort {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: key === 'name' ? 'asc' : 'desc' };
}
