import { describe, expect, it } from 'vitest';
import {
  columnHint,
  defaultUnit,
  formatObserved,
  formatObservedIn,
  matcherAttrKeys,
  observedRange,
  parseBound,
  parseColumnMap,
  prefillUnit,
  singleColumn,
  suggestionRange,
  unitReading,
  withBlankRow,
  withMatcherRow,
} from './monitorFormRules';

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

  it("defaults the column unit to the column map's, else the query column's own (spec platform §3 Units)", () => {
    const cols = [{ name: 'p90($spans)', unit: 'microseconds', isGroup: false }];
    // Before: a monitor from a tracing Monitor menu had no unit ("none") although its column is in µs.
    expect(defaultUnit({}, 'p90($spans)', cols)).toBe('microseconds');
    expect(defaultUnit({ 'p90($spans)': { unit: 'milliseconds', color: '' } }, 'p90($spans)', cols)).toBe(
      'milliseconds',
    );
    expect(defaultUnit({}, 'rpm', [{ name: 'rpm', unit: '{request}', isGroup: false }])).toBe('');
    // The query's columns not known yet: the map's.
    expect(defaultUnit({ a: { unit: 'bytes', color: '' } }, '', undefined)).toBe('bytes');
    expect(defaultUnit({}, '', undefined)).toBe('');
  });

  it('gives the observed min without zeroes and the observed max, with decimals by magnitude', () => {
    expect(observedRange([{ values: [0, 3.14159, null, 42] }, { values: [0.5, 0] }])).toEqual({ min: 0.5, max: 42 });
    expect(observedRange([{ values: [0, 0] }])).toEqual({ min: null, max: 0 });
    expect(observedRange([])).toEqual({ min: null, max: null });
    expect(formatObserved(0.012345)).toBe('0.012');
    expect(formatObserved(0.5)).toBe('0.5');
    expect(formatObserved(3.14159)).toBe('3.1');
    expect(formatObserved(1234.56)).toBe('1235');
  });

  it('reads observed values and bounds in the column unit, with the number the field takes when it scales', () => {
    expect(formatObservedIn(8 * 2 ** 30, 'bytes')).toBe('8 GB = 8589934592');
    expect(formatObservedIn(8833542494, 'bytes')).toBe('8.2 GB = 8833542494');
    expect(formatObservedIn(1500, 'milliseconds')).toBe('1.5s = 1500');
    expect(formatObservedIn(0.2, 'utilization')).toBe('20% = 0.2');
    // The same number in its unit: no repeat.
    expect(formatObservedIn(250, 'milliseconds')).toBe('250ms');
    expect(formatObservedIn(512, 'bytes')).toBe('512');
    // No unit, or one without a format of its own: the bare number, as before.
    expect(formatObservedIn(1234.56, '')).toBe('1235');
    expect(formatObservedIn(42, '{request}')).toBe('42');
    expect(unitReading(6 * 2 ** 30, 'bytes')).toBe('6 GB');
    expect(unitReading(0.25, 'utilization')).toBe('25%');
    expect(unitReading(250, 'milliseconds')).toBeUndefined();
    expect(unitReading(3, '')).toBeUndefined();
    expect(unitReading(Infinity, 'bytes')).toBeUndefined();
  });

  it('adds no blank matcher row past the server limit of 20', () => {
    const filled = { attr: 'a', op: '=' as const, value: 'b' };
    expect(withMatcherRow(Array(19).fill(filled))).toHaveLength(20);
    expect(withMatcherRow(Array(20).fill(filled))).toHaveLength(20);
  });

  it("suggests the span attribute keys for an error monitor's matchers, not the span's own columns", () => {
    const keys = [
      { value: 'service.name', pinned: true },
      { value: '.system', pinned: false },
      { value: '.name', pinned: false },
      { value: 'http.route', pinned: false },
    ];
    expect(matcherAttrKeys(keys)).toEqual(['service.name', 'http.route']);
  });

  it('looks for suggestions over the last day, to the minute (one request while the form is open)', () => {
    const now = Date.parse('2026-05-01T10:00:30.500Z');
    expect(suggestionRange(now)).toEqual({ time_gte: '2026-04-30T10:01:00.000Z', time_lt: '2026-05-01T10:01:00.000Z' });
  });
});

describe('min / max values as typed', () => {
  it('reads numbers, and a percentage in a percent unit', () => {
    expect(parseBound('', '')).toEqual({ value: null });
    expect(parseBound(' 20 ', '')).toEqual({ value: 20 });
    expect(parseBound('0.5', 'utilization')).toEqual({ value: 0.5 });
    expect(parseBound('20%', 'utilization')).toEqual({ value: 0.2 });
    expect(parseBound('20 %', 'percents')).toEqual({ value: 20 });
  });

  it('refuses what is no number, and a percentage in a unit that is no percentage', () => {
    expect(parseBound('20%', '').error).toMatch(/without %/);
    expect(parseBound('20%', 'milliseconds').error).toMatch(/without %/);
    expect(parseBound('twenty', '').error).toMatch(/A number/);
    expect(parseBound('20%', '').value).toBeNull();
  });
});
