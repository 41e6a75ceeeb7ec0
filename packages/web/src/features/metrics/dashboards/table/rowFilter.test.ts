import { describe, expect, it } from 'vitest';
import { queryValue, rowFilter, searchRows, sortRows } from './rowFilter';

const cols = [
  { name: 'service.name', unit: '', isGroup: true },
  { name: 'host.name', unit: '', isGroup: true },
  { name: 'rpm', unit: '', isGroup: false },
];

describe('dashboard table rows', () => {
  it('selects a row by its grouping columns, quoting what needs quotes', () => {
    expect(rowFilter(cols, { 'service.name': 'api', 'host.name': 'web 1', rpm: 3 })).toBe(
      'where service.name = api | where host.name = "web 1"',
    );
    expect(queryValue('a"b c')).toBe('"a\\"b c"');
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
