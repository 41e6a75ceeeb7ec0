import { describe, expect, it } from 'vitest';
import { quoteValue } from '../../../lib/query/facetFilter';
import {
  addParts,
  defaultGroupQuery,
  hasNoDuration,
  isEventSystem,
  resetGroupBy,
  setWhere,
  whereQuery,
} from './defaultQueries';

describe('query helpers', () => {
  it('quotes values the way the query language reads them', () => {
    expect(quoteValue('200')).toBe('200');
    expect(quoteValue('1.5')).toBe('1.5');
    expect(quoteValue('01')).toBe('"01"');
    expect(quoteValue('api')).toBe('"api"');
    expect(quoteValue('"kept"')).toBe('"kept"');
    expect(quoteValue('')).toBe('""');
    expect(quoteValue('a"b')).toBe('"a\\"b"');
  });

  it('keeps only where parts', () => {
    expect(whereQuery('group by .group_id | where a = 1 | .count | where b exists')).toBe(
      'where a = 1 | where b exists',
    );
  });

  it('picks the default group query by system kind and keeps the filters', () => {
    expect(defaultGroupQuery(['events:all'])).toBe('group by .group_id | .count_per_min');
    expect(defaultGroupQuery(['log:all'])).toBe('group by .group_id | .count_per_min');
    expect(defaultGroupQuery(['log:info'], 'where a = 1')).toBe('group by .group_id | .count_per_min | where a = 1');
    expect(defaultGroupQuery(['all'], 'group by x | where a = 1')).toBe(
      'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | where a = 1',
    );
    expect(isEventSystem('log:error')).toBe(true);
    expect(isEventSystem('log:info')).toBe(false);
  });

  it('treats events, messages and every log system as rows without a duration', () => {
    expect(
      ['events:all', 'other-events', 'message:kafka', 'log:all', 'log:info', 'log:error'].map(hasNoDuration),
    ).toEqual([true, true, true, true, true, true]);
    expect(['all', 'spans:all', 'http:shop', 'db:postgresql', undefined].map(hasNoDuration)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('replaces a filter on the same column and operator', () => {
    const q = setWhere('where .status_code = "ok"', '.status_code', '=', 'error');
    expect(q).toBe('where .status_code = "error"');
    expect(setWhere(q, '.duration', '>=', '10ms')).toBe('where .status_code = "error" | where .duration >= "10ms"');
    expect(setWhere('', 'db.system', 'exists')).toBe('where db.system exists');
  });

  it('adds parts once and replaces the grouping', () => {
    expect(addParts('a | b', 'b | c')).toBe('a | b | c');
    expect(resetGroupBy('group by .group_id | .count', 'service.name')).toBe('group by service.name | .count');
  });
});
