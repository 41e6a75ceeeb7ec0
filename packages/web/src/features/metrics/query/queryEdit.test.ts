import { describe, expect, it } from 'vitest';
import {
  addPart,
  aggregationPart,
  aliasError,
  groupByKeys,
  quoteQueryValue,
  removePart,
  replacePart,
  suggestAlias,
  toggleGroupBy,
} from './queryEdit';

describe('metric aliases', () => {
  it('suggests a free alias from the name', () => {
    expect(suggestAlias('http.server.duration', [])).toBe('duration');
    expect(suggestAlias('http.server.duration', ['duration'])).toBe('duration2');
    expect(suggestAlias('2xx_responses', [])).toBe('m2xx_responses');
    expect(suggestAlias('system.cpu.utilization', [])).toBe('utilization');
  });
  it('has the spec messages', () => {
    expect(aliasError('', [])).toBe('Alias is required');
    expect(aliasError('a-b', [])).toBe('Only letters and numbers are allowed');
    // Letters, digits and underscore in any order (spec platform §5): a digit or `_` may lead.
    expect(aliasError('5xx', [])).toBeUndefined();
    expect(aliasError('_tmp', [])).toBeUndefined();
    expect(
      aliasError('cpu', [
        { name: 'a', alias: 'cpu' },
        { name: 'b', alias: 'cpu' },
      ]),
    ).toBe('Alias is duplicated');
    expect(aliasError('cpu', [{ name: 'a', alias: 'cpu' }])).toBeUndefined();
  });
});

describe('query parts', () => {
  it('adds, replaces and removes parts without touching quoted pipes', () => {
    const q = 'avg($cpu) | where host = "a|b"';
    expect(addPart(q, 'group by host')).toBe('avg($cpu) | where host = "a|b" | group by host');
    expect(removePart(q, 0)).toBe('where host = "a|b"');
    expect(replacePart(q, 0, 'max($cpu)')).toBe('max($cpu) | where host = "a|b"');
    expect(addPart('', 'sum($req)')).toBe('sum($req)');
  });
  it('toggles group-by keys in one part', () => {
    expect(toggleGroupBy('sum($r)', 'host')).toBe('sum($r) | group by host');
    expect(toggleGroupBy('sum($r) | group by host', 'route')).toBe('sum($r) | group by host, route');
    expect(toggleGroupBy('sum($r) | group by host, route', 'host')).toBe('sum($r) | group by route');
    expect(toggleGroupBy('sum($r) | group by host', 'host')).toBe('sum($r)');
    expect(groupByKeys('a | group by x, y')).toEqual(['x', 'y']);
  });
  it('writes aggregations and values the way the language reads them', () => {
    expect(aggregationPart('p90', 'lat')).toBe('p90($lat)');
    expect(aggregationPart('per_min(count)', 'lat')).toBe('per_min(count($lat))');
    expect(quoteQueryValue('web-1')).toBe('web-1');
    expect(quoteQueryValue('GET /a b')).toBe('"GET /a b"');
    // A negative number is quoted too: it reads back the same either way.
    expect(quoteQueryValue('-1')).toBe('"-1"');
    expect(quoteQueryValue('500')).toBe('500');
  });
});
