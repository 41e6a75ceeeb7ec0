import { describe, expect, it } from 'vitest';
import { sortedTimeseriesGroups, timeseriesOrder } from './timeseriesOrder';

const group = (id: string, count: (number | null)[], p50: (number | null)[]) => ({
  _id: id,
  _name: `service.name="${id}"`,
  _query: `where service.name = "${id}"`,
  'per_min(count())': count,
  'p50(.duration)': p50,
});

describe('timeseriesOrder', () => {
  const metrics = ['per_min(count())', 'p50(.duration)'];

  it('defaults to the average of the first metric, descending', () =>
    expect(timeseriesOrder(undefined, true, metrics)).toEqual({ column: '_avg_per_min(count())', desc: true }));

  it("keeps the address's order when the table has that column", () => {
    expect(timeseriesOrder('_avg_p50(.duration)', false, metrics)).toEqual({
      column: '_avg_p50(.duration)',
      desc: false,
    });
    expect(timeseriesOrder('_name', false, metrics)).toEqual({ column: '_name', desc: false });
  });

  it('falls back to the default for a column the table does not show', () =>
    expect(timeseriesOrder('.count_per_min', false, metrics)).toEqual({ column: '_avg_per_min(count())', desc: true }));

  it('has no order without metrics', () => expect(timeseriesOrder(undefined, true, [])).toBeUndefined());
});

describe('sortedTimeseriesGroups', () => {
  const metrics = ['per_min(count())', 'p50(.duration)'];
  const groups = [group('a', [1, 1], [null, 9]), group('b', [5, 3], [2, null]), group('c', [2, null], [null, null])];

  it('adds each metric average over the buckets with data', () => {
    const rows = sortedTimeseriesGroups(groups, metrics, undefined);
    expect(rows.map((r) => [r['_avg_per_min(count())'], r['_avg_p50(.duration)']])).toEqual([
      [1, 9],
      [4, 2],
      [2, null],
    ]);
  });

  it('sorts the whole list by an average, groups without a value last', () => {
    const ids = (column: string, desc: boolean) =>
      sortedTimeseriesGroups(groups, metrics, { column, desc }).map((r) => r._id);
    expect(ids('_avg_per_min(count())', true)).toEqual(['b', 'c', 'a']);
    expect(ids('_avg_p50(.duration)', true)).toEqual(['a', 'b', 'c']);
    expect(ids('_avg_p50(.duration)', false)).toEqual(['b', 'a', 'c']);
    expect(ids('_name', false)).toEqual(['a', 'b', 'c']);
  });
});
