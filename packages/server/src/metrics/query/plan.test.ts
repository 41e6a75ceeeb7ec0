import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { MAX_GROUP_BY_ATTRS, planQuery, type MetricRef } from './plan';

const metrics: MetricRef[] = [{ name: 'cpu', alias: 'cpu', instrument: 'gauge', unit: '' }];
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
