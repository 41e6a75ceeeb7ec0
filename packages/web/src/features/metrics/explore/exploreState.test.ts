import { describe, expect, it } from 'vitest';
import { filterByName, metricsCount, metricsFromParams, metricsToParams, sortMetrics } from './exploreState';

describe('metrics explore state', () => {
  it('pairs metric and alias params both ways', () => {
    const m = metricsFromParams(['a.b', 'c'], ['b']);
    expect(m).toEqual([
      { name: 'a.b', alias: 'b' },
      { name: 'c', alias: '' },
    ]);
    expect(metricsToParams(m)).toEqual({ metric: ['a.b', 'c'], alias: ['b', ''] });
  });

  it('sorts by timeseries, then name', () => {
    const rows = [
      { name: 'b', instrument: 'gauge', numTimeseries: 2 },
      { name: 'a', instrument: 'counter', numTimeseries: 2 },
      { name: 'c', instrument: 'gauge', numTimeseries: 5 },
    ];
    expect(sortMetrics(rows, { by: 'numTimeseries', desc: true }).map((r) => r.name)).toEqual(['c', 'b', 'a']);
    expect(sortMetrics(rows, { by: 'instrument', desc: false }).map((r) => r.name)).toEqual(['a', 'b', 'c']);
  });

  it('narrows by name as the server search does: case-insensitive, anywhere in the name', () => {
    const rows = [{ name: 'shop.orders' }, { name: 'shop.latency' }, { name: 'Orders.Failed' }];
    expect(filterByName(rows, ' ORDERS ').map((m) => m.name)).toEqual(['shop.orders', 'Orders.Failed']);
    expect(filterByName(rows, '')).toBe(rows);
  });

  it("counts the metrics, with 'more than' when more exist", () => {
    expect(metricsCount(5, false)).toBe('5 metrics');
    expect(metricsCount(1, false)).toBe('1 metric');
    expect(metricsCount(1000, true)).toBe('more than 1000 metrics');
  });
});
