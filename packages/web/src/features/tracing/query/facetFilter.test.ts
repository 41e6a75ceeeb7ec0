import { describe, expect, it } from 'vitest';
import { selectedValues, withValues } from './facetFilter';

describe('facet filters', () => {
  it('reads = and in parts', () => {
    expect(selectedValues('group by x | where service.name = "api"', 'service.name')).toEqual(['api']);
    expect(selectedValues('where service.name in ("a", "b")', 'service.name')).toEqual(['a', 'b']);
    expect(selectedValues('where http.status_code = 200', 'http.status_code')).toEqual(['200']);
    expect(selectedValues('where service.name like "%a%"', 'service.name')).toEqual([]);
    expect(selectedValues('where other = 1', 'service.name')).toEqual([]);
  });

  it('writes one value, several, or removes the part', () => {
    const q = withValues('group by .group_id', 'service.name', ['api']);
    expect(q).toBe('group by .group_id | where service.name = "api"');
    const two = withValues(q, 'service.name', ['api', 'web']);
    expect(two).toBe('group by .group_id | where service.name in ("api", "web")');
    expect(withValues(two, 'service.name', [])).toBe('group by .group_id');
  });
});
