import { describe, expect, it } from 'vitest';
import { isMetricAlias, metricAliasProblem } from './metricAliasRules';

describe('isMetricAlias', () => {
  it.each(['a', 'p50', 'req_count', 'x_1_', '1a', '5xx', '_a', '_', '42'])('accepts %j', (a) =>
    expect(isMetricAlias(a)).toBe(true),
  );
  it.each(['', 'A', 'aB', 'a-b', 'a.b', '$a', 'a b', 'é'])('refuses %j', (a) => expect(isMetricAlias(a)).toBe(false));
});

describe('metricAliasProblem', () => {
  it('finds nothing wrong in valid, distinct aliases', () => {
    expect(metricAliasProblem(['a', 'b', 'c2'])).toBeUndefined();
    expect(metricAliasProblem([])).toBeUndefined();
  });
  it('reports an empty alias first, then an invalid one, then a duplicate', () => {
    expect(metricAliasProblem(['a', 'a', 'B', ''])).toEqual({ kind: 'empty', alias: '' });
    expect(metricAliasProblem(['a', 'a', 'B'])).toEqual({ kind: 'invalid', alias: 'B' });
    expect(metricAliasProblem(['a', 'b', 'a'])).toEqual({ kind: 'duplicate', alias: 'a' });
  });
});
