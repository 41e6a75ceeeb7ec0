import { parseMetricsQuery } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import {
  applyGridQueryTemplate,
  queryValue,
  rowFilter,
  rowGroups,
  rowPanelQuery,
  searchRows,
  sortRows,
} from './rowFilter';

const cols = [
  { name: 'service.name', unit: '', isGroup: true },
  { name: 'host.name', unit: '', isGroup: true },
  { name: 'rpm', unit: '', isGroup: false },
];

describe('dashboard table rows', () => {
  it('selects a row by its grouping columns, quoting what needs quotes', () => {
    const groups = rowGroups(cols, { 'service.name': 'api', 'host.name': 'web 1', rpm: 3 });
    expect(groups).toEqual({ 'service.name': 'api', 'host.name': 'web 1' });
    expect(rowFilter(groups)).toBe('where service.name = api | where host.name = "web 1"');
    expect(queryValue('a"b c')).toBe('"a\\"b c"');
  });

  it('writes every row value so the metrics query language reads it back whole (a route, a URL, a port)', () => {
    const values = [
      '/cart',
      'http://shop:8080/pay',
      'db:5432',
      '-x',
      '.x',
      'web-1',
      'a.b-c',
      'a/b',
      '10',
      'web 1',
      'a"b',
    ];
    for (const v of values) {
      const [part] = parseMetricsQuery(`where k = ${queryValue(v)}`).parts;
      expect(part.kind === 'where' ? part.filters[0].values : part).toEqual([v]);
    }
    // Plain words stay bare, as a person writes them.
    expect(['web-1', 'a.b-c', 'api', '10'].map(queryValue)).toEqual(['web-1', 'a.b-c', 'api', '10']);
    expect(queryValue('/cart')).toBe('"/cart"');
  });

  it("fills a panel's grid query template with the row's quoted values", () => {
    const groups = { 'service.name': 'api', 'host.name': 'web 1' };
    expect(applyGridQueryTemplate('where service = ${service.name} | where host = ${ host.name }', groups)).toBe(
      'where service = api | where host = "web 1"',
    );
    // A placeholder that is not a grouping column stays, so the panel shows the query's error.
    expect(applyGridQueryTemplate('where x = ${rpm}', groups)).toBe('where x = ${rpm}');
  });

  it('uses the template instead of the dashboard query and the row filter, when a panel has one', () => {
    const groups = { 'service.name': 'api' };
    expect(rowPanelQuery('', 'where env = prod', groups)).toEqual(['where env = prod', 'where service.name = api']);
    expect(rowPanelQuery('where service = ${service.name}', 'where env = prod', groups)).toEqual([
      'where service = api',
    ]);
  });

  it('searches and sorts', () => {
    const rows = [
      { 'service.name': 'api', 'host.name': 'h1', rpm: 3 },
      { 'service.name': 'billing', 'host.name': 'h2', rpm: null },
      { 'service.name': 'cart', 'host.name': 'h3', rpm: 10 },
    ];
    expect(searchRows(rows, cols, 'BILL').map((r) => r['service.name'])).toEqual(['billing']);
    expect(sortRows(rows, 'rpm', true).map((r) => r.rpm)).toEqual([10, 3, null]);
    expect(sortRows(rows, 'service.name', false).map((r) => r['service.name'])).toEqual(['api', 'billing', 'cart']);
  });
});
