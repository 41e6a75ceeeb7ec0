import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { MAX_FILTER_TERMS, MAX_GROUP_BY_ATTRS } from '@lantern/shared';
import { planQuery, type MetricRef } from './plan';

const metrics: MetricRef[] = [
  { name: 'cpu', alias: 'cpu', instrument: 'gauge', unit: '' },
  { name: 'mem', alias: 'mem', instrument: 'gauge', unit: '' },
];
const attrs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`).join(', ');
const plan = (query: string) => planQuery(parseMetricsQuery(query), metrics, 'timeseries');

describe('planQuery grouping', () => {
  it(`groups by up to ${MAX_GROUP_BY_ATTRS} attributes, and refuses more as the selector's error (a few hundred ran for half a minute)`, () => {
    expect(plan(`avg($cpu) | group by ${attrs(MAX_GROUP_BY_ATTRS)}`).queries[0].grouping).toHaveLength(
      MAX_GROUP_BY_ATTRS,
    );
    for (const query of [
      `avg($cpu) | group by ${attrs(300)}`,
      `avg($cpu) group by ${attrs(MAX_GROUP_BY_ATTRS + 1)}`,
      `avg($cpu) | group by ${attrs(15)} | group by b0, b1, b2, b3, b4, b5`,
    ]) {
      const p = plan(query);
      expect(p.queries, query).toEqual([]);
      expect(p.partErrors.get(0), query).toMatch(/^too many group by attributes: \d+ \(at most 20\)$/);
    }
  });
});

const terms = (n: number, from = 0, sep = ' and ') =>
  Array.from({ length: n }, (_, i) => `host != h${from + i}`).join(sep);

describe('planQuery filters', () => {
  it(`filters a series by up to ${MAX_FILTER_TERMS} terms, and refuses more as the selector's error (400 ran for seconds)`, () => {
    for (const query of [
      `avg($cpu) | where ${terms(MAX_FILTER_TERMS)}`,
      `avg($cpu{${terms(50, 0, ', ')}}) | where ${terms(50, 50, ' or ')}`,
      // Terms scoped to another metric don't count against this one.
      `avg($cpu) | where ${terms(MAX_FILTER_TERMS)} | where $mem.host = a`,
    ]) {
      const p = plan(query);
      expect(p.partErrors, query).toEqual(new Map());
      expect(p.queries, query).toHaveLength(1);
    }
    for (const [query, n] of [
      [`avg($cpu) | where ${terms(400)}`, 400],
      [`avg($cpu) | where ${terms(MAX_FILTER_TERMS + 1, 0, ' or ')}`, 101],
      [`avg($cpu{${terms(60, 0, ', ')}}) | where ${terms(60, 60)}`, 120],
      [`avg($cpu) | where ${terms(60)} | where ${terms(60, 60)}`, 120],
      [`avg($cpu) + avg($cpu) | where ${terms(MAX_FILTER_TERMS + 1)}`, 101],
    ] as const) {
      const p = plan(query);
      expect(p.queries, query).toEqual([]);
      expect(p.partErrors.get(0), query).toBe(`too many filters: ${n} (at most 100)`);
    }
  });
});
