import { parseMetricsQuery } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { valueHint, valueProblem, WHERE_OPS, wherePart } from './whereOps';

describe('the Where dialog operators (spec §5, as the metrics engine runs them)', () => {
  it('offers the numeric comparisons, like and exists, and no contains (the metrics language has none)', () => {
    for (const op of ['=', '!=', '<', '<=', '>', '>=', 'like', 'not like', 'exists', 'not exists'])
      expect(WHERE_OPS).toContain(op);
    expect(WHERE_OPS).not.toContain('contains');
  });

  it('builds a part the metrics parser reads back as the same filter, for every operator', () => {
    for (const op of WHERE_OPS) {
      const value = ['<', '<=', '>', '>='].includes(op) ? '-1.5' : 'web-%';
      const parsed = parseMetricsQuery(`$a | ${wherePart('http.status_code', op, value)}`);
      expect(parsed.diagnostics, op).toEqual([]);
      const part = parsed.parts[1];
      expect(part.kind === 'where' && part.filters[0], op).toMatchObject({
        attr: 'http.status_code',
        op,
        values: op === 'exists' || op === 'not exists' ? [] : [value],
      });
    }
    expect(wherePart('http.status_code', '>=', ' 500 ')).toBe('where http.status_code >= 500');
    expect(wherePart('host', 'not exists', 'ignored')).toBe('where host not exists');
  });

  it('takes a number only for < <= > >=, and no value for exists', () => {
    expect(valueProblem('>=', 'abc')).toBe('Enter a number');
    expect(valueProblem('<', '')).toBe('Value is required');
    expect(valueProblem('>=', '500')).toBeUndefined();
    expect(valueProblem('=', 'abc')).toBeUndefined();
    expect(valueProblem('exists', '')).toBeUndefined();
  });

  it('hints that % matches zero or more characters for like', () => {
    expect(valueHint('like')).toBe('"%" matches zero or more characters');
    expect(valueHint('not like')).toBe('"%" matches zero or more characters');
    expect(valueHint('=')).toBeUndefined();
  });
});
