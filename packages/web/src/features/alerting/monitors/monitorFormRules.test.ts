import { describe, expect, it } from 'vitest';
import { columnHint, parseColumnMap, prefillUnit, singleColumn, withBlankRow } from './monitorFormRules';

const col = (name: string) => ({ name });

describe('monitor form rules', () => {
  it('wants exactly one column from the query (spec platform §5)', () => {
    expect(columnHint(undefined)).toBeUndefined();
    expect(columnHint([col('max($depth)')])).toBeUndefined();
    expect(columnHint([])).toBe('The query must return at least one column to monitor.');
    expect(columnHint([col('a'), col('b'), col('c')])).toBe(
      'The query returns 3 columns, but only a single column is allowed.',
    );
    expect(singleColumn([col('max($depth)')])).toBe('max($depth)');
    expect(singleColumn([col('a'), col('b')])).toBe('');
    expect(singleColumn([])).toBe('');
    expect(singleColumn(undefined)).toBe('');
  });

  it('reads the prefilled column map of a dashboard panel and its unit for the column', () => {
    const map = parseColumnMap(JSON.stringify({ 'max($depth)': { unit: 'kilobytes', color: '#f00' } }));
    expect(map).toEqual({ 'max($depth)': { unit: 'kilobytes', color: '#f00' } });
    expect(prefillUnit(map, 'max($depth)')).toBe('kilobytes');
    expect(prefillUnit(map, 'other')).toBe('');
    // Before the query's column is known: the unit the whole map agrees on.
    expect(prefillUnit(map, '')).toBe('kilobytes');
    expect(prefillUnit({ a: { unit: 'bytes', color: '' }, b: { unit: 'seconds', color: '' } }, '')).toBe('');
    // A braced unit is an annotation, not a unit.
    expect(prefillUnit(parseColumnMap('{"rpm":{"unit":"{request}"}}'), 'rpm')).toBe('');
    expect(parseColumnMap(null)).toEqual({});
    expect(parseColumnMap('not json')).toEqual({});
    expect(parseColumnMap('[1,2]')).toEqual({});
    expect(parseColumnMap('{}')).toEqual({});
  });

  it('always keeps one blank matcher row (spec platform §2.10)', () => {
    const filled = { attr: 'service.name', op: '=' as const, value: 'checkout' };
    const blank = { attr: '', op: '=' as const, value: '' };
    expect(withBlankRow([])).toEqual([blank]);
    expect(withBlankRow([filled])).toEqual([filled, blank]);
    expect(withBlankRow([filled, blank])).toEqual([filled, blank]);
    expect(withBlankRow([blank, filled])).toEqual([blank, filled]);
    // A row with only an attribute is not blank.
    expect(withBlankRow([{ ...blank, attr: 'x' }])).toHaveLength(2);
  });
});
