import type { TimeseriesGroup } from '@lantern/shared';
import { sortGroups } from './groupColumns';
import { averageOfPresent } from './seriesAverage';

/** The column of a metric's average in the Timeseries groups table (reference frontend: useSpanTimeseries). */
export const avgColumn = (metric: string): string => `_avg_${metric}`;

/** A group's values of one column: null where a bucket had nothing to measure (a gap). */
export const valuesOf = (g: TimeseriesGroup, column: string): (number | null)[] => {
  const v = g[column];
  return Array.isArray(v) ? v : [];
};

export interface TimeseriesOrder {
  column: string;
  desc: boolean;
}

/**
 * The Timeseries table's order (reference frontend, Timeseries tab: `_avg_<first metric>` desc by
 * default, synced to the address). A `sort_by` this table has no column for (one left by an older
 * query) falls back to the default, so the table is always sorted by a column it shows.
 */
export function timeseriesOrder(
  sortBy: string | undefined,
  sortDesc: boolean,
  metrics: readonly string[],
): TimeseriesOrder | undefined {
  const sortable = ['_name', ...metrics.map(avgColumn)];
  if (sortBy && sortable.includes(sortBy)) return { column: sortBy, desc: sortDesc };
  return metrics.length ? { column: avgColumn(metrics[0]), desc: true } : undefined;
}

/**
 * Each group with the average of every metric over the buckets with data (`_avg_<metric>`), the
 * whole list sorted by `order` (before paging, so page 1 holds the top groups of all of them).
 */
export function sortedTimeseriesGroups(
  groups: readonly TimeseriesGroup[],
  metrics: readonly string[],
  order: TimeseriesOrder | undefined,
): TimeseriesGroup[] {
  const rows = groups.map((g) => {
    const row: TimeseriesGroup = { ...g };
    for (const m of metrics) row[avgColumn(m)] = averageOfPresent(valuesOf(g, m));
    return row;
  });
  return order ? sortGroups(rows, order.column, order.desc) : rows;
}
