import { describe, expect, it } from 'vitest';
import { MONITOR_LEGEND_SORT, nextLegendSort, sortLegendSeries } from './legendSort';

const s = (name: string, values: (number | null)[]) => ({ name, values });

describe('sortLegendSeries', () => {
  // Server order: the largest max comes last; the largest avg comes first.
  const series = [
    s('host-1', [60, 60, 101]),
    s('host-2', [55, null, 102]),
    s('host-10', [5, 5, 112]),
    s('host-3', [0, 40, 40]),
  ];

  it('puts the largest max first by default, so the first page (the one plotted) holds it', () => {
    expect(sortLegendSeries(series, MONITOR_LEGEND_SORT).map((x) => x.name)).toEqual([
      'host-10',
      'host-2',
      'host-1',
      'host-3',
    ]);
  });

  it('sorts by avg, last and min as the legend shows them (min without zeroes), either way', () => {
    const names = (key: 'avg' | 'last' | 'min', dir: 'asc' | 'desc') =>
      sortLegendSeries(series, { key, dir }).map((x) => x.name);
    expect(names('avg', 'desc')).toEqual(['host-2', 'host-1', 'host-10', 'host-3']);
    expect(names('avg', 'asc')).toEqual(['host-3', 'host-10', 'host-1', 'host-2']);
    expect(names('last', 'desc')).toEqual(['host-10', 'host-2', 'host-1', 'host-3']);
    // host-3's min is 40, not its 0.
    expect(names('min', 'asc')).toEqual(['host-10', 'host-3', 'host-2', 'host-1']);
  });

  it('sorts names with their numbers in order, and breaks ties by name', () => {
    expect(sortLegendSeries(series, { key: 'name', dir: 'asc' }).map((x) => x.name)).toEqual([
      'host-1',
      'host-2',
      'host-3',
      'host-10',
    ]);
    expect(sortLegendSeries(series, { key: 'name', dir: 'desc' }).map((x) => x.name)).toEqual([
      'host-10',
      'host-3',
      'host-2',
      'host-1',
    ]);
    const tied = [s('b', [1]), s('c', [1]), s('a', [1])];
    expect(sortLegendSeries(tied, { key: 'max', dir: 'desc' }).map((x) => x.name)).toEqual(['a', 'b', 'c']);
    expect(sortLegendSeries(tied, { key: 'max', dir: 'asc' }).map((x) => x.name)).toEqual(['a', 'b', 'c']);
  });

  it('keeps each series whole, leaves the input alone, and takes series without values', () => {
    const input = [s('x', [null]), s('y', [3]), s('z', [])];
    const before = input.map((x) => x.name);
    const out = sortLegendSeries(input, MONITOR_LEGEND_SORT);
    expect(out.map((x) => x.name)).toEqual(['y', 'x', 'z']);
    expect(out[0]).toBe(input[1]);
    expect(input.map((x) => x.name)).toEqual(before);
    expect(sortLegendSeries([], MONITOR_LEGEND_SORT)).toEqual([]);
  });

  it('puts series with no value in the range last both ways, below a series of negatives', () => {
    const input = [s('gone', [null]), s('neg', [-5]), s('pos', [2])];
    expect(sortLegendSeries(input, { key: 'max', dir: 'desc' }).map((x) => x.name)).toEqual(['pos', 'neg', 'gone']);
    expect(sortLegendSeries(input, { key: 'max', dir: 'asc' }).map((x) => x.name)).toEqual(['neg', 'pos', 'gone']);
  });
});

describe('nextLegendSort', () => {
  it('flips the sorted column; another column starts with names A to Z and values largest first', () => {
    expect(nextLegendSort(MONITOR_LEGEND_SORT, 'max')).toEqual({ key: 'max', dir: 'asc' });
    expect(nextLegendSort({ key: 'max', dir: 'asc' }, 'max')).toEqual({ key: 'max', dir: 'desc' });
    expect(nextLegendSort(MONITOR_LEGEND_SORT, 'avg')).toEqual({ key: 'avg', dir: 'desc' });
    expect(nextLegendSort(MONITOR_LEGEND_SORT, 'name')).toEqual({ key: 'name', dir: 'asc' });
    expect(nextLegendSort({ key: 'name', dir: 'asc' }, 'name')).toEqual({ key: 'name', dir: 'desc' });
  });

  it('from no sort yet (a dashboard legend in the order given), values start largest first and names A to Z', () => {
    expect(nextLegendSort(undefined, 'max')).toEqual({ key: 'max', dir: 'desc' });
    expect(nextLegendSort(undefined, 'last')).toEqual({ key: 'last', dir: 'desc' });
    expect(nextLegendSort(undefined, 'name')).toEqual({ key: 'name', dir: 'asc' });
  });
});
