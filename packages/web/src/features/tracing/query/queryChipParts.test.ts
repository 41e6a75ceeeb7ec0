import { describe, expect, it } from 'vitest';
import { chipParts } from './queryChipParts';

describe('chipParts', () => {
  it('splits into keyword chips and reports parser errors per part', () => {
    const parts = chipParts('group by .group_id | .count_per_min | where .duration >');
    expect(parts.map((p) => [p.keyword, p.rest])).toEqual([
      ['group by', '.group_id'],
      ['', '.count_per_min'],
      ['where', '.duration >'],
    ]);
    expect(parts[0].error).toBeUndefined();
    expect(parts[2].error).toMatch(/value/);
  });

  it('takes the server error and disabled flag for the same part', () => {
    const parts = chipParts('where foo = 1 | group by x', [
      { query: 'where foo = 1', disabled: false, error: 'unknown column', range: { start: 0, end: 13 } },
      { query: 'group by x', disabled: true, error: '', range: { start: 16, end: 26 } },
    ]);
    expect(parts[0].error).toBe('unknown column');
    expect(parts[1].disabled).toBe(true);
  });
});
