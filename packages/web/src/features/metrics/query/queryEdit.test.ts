import type { Instrument } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import {
  addPart,
  defaultQuery,
  dropAliasParts,
  renameAlias,
  syncQueryWithMetrics,
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

describe('the query in step with the picked metrics (reference frontend §1.3.13)', () => {
  const instruments: Record<string, Instrument> = {
    'http.server.request.duration': 'histogram',
    'shop.requests': 'counter',
    'queue.depth': 'gauge',
  };
  const instrumentOf = (name: string) => instruments[name];
  const dur = { name: 'http.server.request.duration', alias: 'duration' };
  const req = { name: 'shop.requests', alias: 'requests' };

  it('where there is room for columns a histogram opens with its avg and rate (reference MetricsPicker)', () => {
    expect(defaultQuery('dur', 'histogram', 'columns')).toBe('avg($dur) | per_min(count($dur))');
    expect(defaultQuery('req', 'counter', 'columns')).toBe('per_min($req)');
    expect(defaultQuery('mem', 'gauge', 'columns')).toBe('avg($mem)');
    const picked = syncQueryWithMetrics('', [], [dur, req], instrumentOf, 'columns');
    expect(picked.query).toBe('avg($duration) | per_min(count($duration)) | per_min($requests)');
    // Removing the histogram takes both of its columns away.
    expect(syncQueryWithMetrics(picked.query, picked.inQuery, [req], instrumentOf, 'columns').query).toBe(
      'per_min($requests)',
    );
  });

  it('where one number is checked (a monitor, a gauge) the default part is one column', () => {
    expect(defaultQuery('req', 'counter')).toBe('per_min($req)');
    expect(defaultQuery('dur', 'histogram')).toBe('p50($dur)');
    expect(defaultQuery('mem', 'gauge')).toBe('avg($mem)');
    expect(defaultQuery('x', 'additive')).toBe('sum($x)');
    expect(defaultQuery('x', 'summary')).toBe('avg($x)');
  });

  it('a picked metric appends its default aggregation', () => {
    const one = syncQueryWithMetrics('', [], [dur], instrumentOf);
    expect(one).toEqual({ query: 'p50($duration)', inQuery: [dur] });
    const two = syncQueryWithMetrics('p50($duration) | group by host', one.inQuery, [dur, req], instrumentOf);
    expect(two.query).toBe('p50($duration) | group by host | per_min($requests)');
  });

  it('a removed metric takes its parts away', () => {
    expect(
      syncQueryWithMetrics(
        'p50($duration) | per_min($requests) | where $requests.host = a',
        [dur, req],
        [dur],
        instrumentOf,
      ).query,
    ).toBe('p50($duration)');
    expect(dropAliasParts('max($depth) | min($depth_max) | group by queue | where $depth.queue = "a"', ['depth'])).toBe(
      'min($depth_max) | group by queue',
    );
    expect(dropAliasParts('max($depth)', [])).toBe('max($depth)');
  });

  it('a renamed alias is rewritten in the query, attributes too, not in longer aliases', () => {
    expect(renameAlias('p90($dur) | max($dur_max) | where $dur.host = a', 'dur', 'lat')).toBe(
      'p90($lat) | max($dur_max) | where $lat.host = a',
    );
    const lat = { ...dur, alias: 'lat' };
    expect(syncQueryWithMetrics('p50($duration) | per_min($requests)', [dur, req], [lat, req], instrumentOf)).toEqual({
      query: 'p50($lat) | per_min($requests)',
      inQuery: [lat, req],
    });
  });

  it('while the alias is typed (empty, invalid, taken) the query keeps the last good one', () => {
    let state = { query: 'p50($duration) | per_min($requests)', inQuery: [dur, req] };
    const type = (alias: string) =>
      (state = syncQueryWithMetrics(state.query, state.inQuery, [{ ...dur, alias }, req], instrumentOf));
    type('');
    expect(state.query).toBe('p50($duration) | per_min($requests)');
    type('requests');
    expect(state.query).toBe('p50($duration) | per_min($requests)');
    type('9x-');
    expect(state.query).toBe('p50($duration) | per_min($requests)');
    type('lat');
    expect(state).toEqual({ query: 'p50($lat) | per_min($requests)', inQuery: [{ ...dur, alias: 'lat' }, req] });
  });
});
