import { describe, expect, it } from 'vitest';
import { firstAggregateOf, groupSpans, headerLabel, plainColumns, plottableColumns, sortGroups } from './groupColumns';

const col = (name: string, isNum: boolean, isGroup = false) => ({ name, unit: '', isNum, isGroup });

describe('group columns', () => {
  const cols = [
    col('.group_id', true, true),
    col('display.name', false),
    col('service.name', false, true),
    col('.count_per_min', true),
    col('p50(.duration)', true),
  ];
  it('splits plottable and plain columns', () => {
    expect(plottableColumns(cols).map((c) => c.name)).toEqual(['.count_per_min', 'p50(.duration)']);
    expect(plainColumns(cols).map((c) => c.name)).toEqual(['service.name']);
  });
  it("names a query's first aggregate, the column plotted by default", () => {
    expect(firstAggregateOf('group by .group_id | .count_per_min | .error_rate | p50(.duration)')).toEqual([
      '.count_per_min',
    ]);
    expect(firstAggregateOf('group by service.name | service.name | p90(span.duration) | .count')).toEqual([
      'p90(.duration)',
    ]);
    expect(firstAggregateOf('where .status_code = "error"')).toEqual([]);
  });
  it('shortens headers', () => {
    expect(
      ['.error_count', '.error_rate', 'p90(.duration)', 'span.name', '.count_per_min', 'uniq(enduser.id)'].map(
        headerLabel,
      ),
    ).toEqual(['errors', 'err%', 'p90', 'name', '.count/min', 'uniq(enduser.id)']);
  });
  it('sorts the whole list with missing values last', () => {
    const groups = [
      { _id: 'a', _name: '', _query: '', n: 2 },
      { _id: 'b', _name: '', _query: '' },
      { _id: 'c', _name: '', _query: '', n: 5 },
    ];
    expect(sortGroups(groups, 'n', true).map((g) => g._id)).toEqual(['c', 'a', 'b']);
    expect(sortGroups(groups, 'n', false).map((g) => g._id)).toEqual(['a', 'c', 'b']);
  });
  it("a row's spans: its own system, the page's where parts, the default group query and the row's where", () => {
    const row = { _id: '1', _name: 'x', _query: 'where service.name = "api"' };
    const page = 'where .duration > 10ms | group by service.name | p50(.duration)';
    expect(groupSpans({ ...row, '.system': 'db:redis' }, page, ['all'])).toEqual({
      system: 'db:redis',
      systems: ['db:redis'],
      query:
        'where .duration > 10ms | group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | where service.name = "api"',
    });
    expect(groupSpans(row, undefined, ['http:api'])).toMatchObject({ system: 'http:api', systems: ['http:api'] });
    expect(groupSpans(row, undefined, ['http:api', 'db:redis'])).toMatchObject({
      system: undefined,
      systems: ['http:api', 'db:redis'],
    });
  });
});
