import type { DashboardVariable } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { pickedValue, withVariables } from './variableState';

const v = (o: Partial<DashboardVariable>): DashboardVariable => ({
  name: 'service',
  label: '',
  kind: 'list',
  metric: '',
  attr: '',
  values: ['a', 'b'],
  query: '',
  multi: false,
  includeAll: false,
  ...o,
});

describe('dashboard variables in the address', () => {
  it('reads var-name, repeated for several, $__all for All, and the defaults', () => {
    const p = new URLSearchParams('var-service=b&var-service=a&var-env=$__all');
    expect(pickedValue(v({}), p)).toEqual(['b']);
    expect(pickedValue(v({ multi: true }), p)).toEqual(['b', 'a']);
    expect(pickedValue(v({ name: 'env' }), p)).toBe('all');
    expect(pickedValue(v({ name: 'other' }), p)).toEqual(['a']);
    expect(pickedValue(v({ name: 'other', includeAll: true }), p)).toBe('all');
    expect(pickedValue(v({ name: 'other', kind: 'attribute', values: [] }), p)).toBe('all');
  });

  it('adds the var parameter to the range only when the dashboard has variables', () => {
    const range = { time_gte: 'x', time_lt: 'y' };
    expect(withVariables(range, [], new URLSearchParams())).toBe(range);
    expect(
      withVariables(
        range,
        [v({ multi: true }), v({ name: 'env', includeAll: true })],
        new URLSearchParams('var-service=a&var-service=b'),
      ),
    ).toEqual({
      ...range,
      var: ['service=a', 'service=b', 'env=$__all'],
    });
  });
});
