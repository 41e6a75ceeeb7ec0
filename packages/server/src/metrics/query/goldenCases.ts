import type { MetricRef, Mode } from './plan';

/**
 * Metrics query -> SQL cases shared by the golden test (exact text and parameters) and the
 * integration check that runs every case on the real engine. Time range: one hour from
 * 2026-01-01T10:00:00Z (1-minute buckets) unless `hours` asks for 7 days (2-hour buckets, the
 * hourly rollup).
 */
export interface GoldenCase {
  name: string;
  query: string;
  metrics: MetricRef[];
  mode?: Mode;
  search?: string;
  hours?: boolean;
  /**
   * The store's rollup watermark falls inside the range (37 minutes into the 1-hour grid, or into
   * the last day of the 7-day one): rollups before it, the minutes from it on.
   */
  watermark?: boolean;
}

const m = (alias: string, instrument: MetricRef['instrument'], unit = '', name = `app.${alias}`): MetricRef => ({
  name,
  alias,
  instrument,
  unit,
});
const counter = m('req', 'counter');
const gauge = m('mem', 'gauge', 'bytes');
const additive = m('conns', 'additive');
const histogram = m('lat', 'histogram', 'milliseconds');
const summary = m('rpc', 'summary', 'seconds');

export const GOLDEN_CASES: GoldenCase[] = [
  { name: 'counter, no func', query: '$req', metrics: [counter] },
  { name: 'counter sum', query: 'sum($req)', metrics: [counter] },
  { name: 'counter per_min', query: 'per_min($req)', metrics: [counter] },
  { name: 'counter per_sec grouped', query: 'per_sec($req) | group by host.name', metrics: [counter] },
  { name: 'counter grouped by two keys', query: '$req | group by service.name, host.name', metrics: [counter] },
  { name: 'counter group by all', query: '$req | group by all', metrics: [counter] },
  { name: 'counter brace filter', query: '$req{status=500}', metrics: [counter] },
  { name: 'counter brace filters in/!~', query: '$req{code in (500, 503), path!~"^/health"}', metrics: [counter] },
  { name: 'counter where =', query: '$req | where host.name = "web-1"', metrics: [counter] },
  {
    name: 'counter where != and like',
    query: '$req | where host.name != a and path like "/api/%"',
    metrics: [counter],
  },
  {
    name: 'counter where or binds looser than and',
    query: '$req | where a = 1 and b = 2 or c = 3',
    metrics: [counter],
  },
  {
    name: 'counter where in / not in',
    query: '$req | where code in (200, 204) | where env not in (dev)',
    metrics: [counter],
  },
  { name: 'counter where regexp', query: '$req | where path ~ "^/v[12]/"', metrics: [counter] },
  { name: 'counter where exists not first', query: '$req | where a = 1 and b exists', metrics: [counter] },
  { name: 'counter where not exists', query: '$req | where b not exists', metrics: [counter] },
  { name: 'counter where numeric <=', query: '$req | where code <= 299', metrics: [counter] },
  { name: 'counter where numeric >', query: '$req | where code > 499', metrics: [counter] },
  { name: 'counter implicit where', query: '$req | host.name = web-2', metrics: [counter] },
  { name: 'counter inline grouping', query: 'per_min($req) group by route', metrics: [counter] },
  { name: 'counter search (table)', query: '$req | group by route', metrics: [counter], mode: 'table', search: 'api' },
  { name: 'gauge, no func (avg of last values)', query: '$mem', metrics: [gauge] },
  { name: 'gauge sum', query: 'sum($mem)', metrics: [gauge] },
  { name: 'gauge min', query: 'min($mem)', metrics: [gauge] },
  { name: 'gauge max grouped', query: 'max($mem) | group by host.name', metrics: [gauge] },
  { name: 'gauge group by all', query: '$mem | group by all', metrics: [gauge] },
  { name: 'gauge last', query: 'last($mem)', metrics: [gauge], mode: 'table' },
  { name: 'additive, no func (sum of last values)', query: '$conns', metrics: [additive] },
  { name: 'additive avg', query: 'avg($conns)', metrics: [additive] },
  { name: 'histogram p50', query: 'p50($lat)', metrics: [histogram] },
  { name: 'histogram p99 grouped', query: 'p99($lat) | group by http.route', metrics: [histogram] },
  { name: 'histogram avg', query: 'avg($lat)', metrics: [histogram] },
  { name: 'histogram count per_min', query: 'per_min(count($lat))', metrics: [histogram] },
  { name: 'histogram min and max', query: 'min($lat) | max($lat)', metrics: [histogram] },
  { name: 'summary avg', query: 'avg($rpc)', metrics: [summary] },
  { name: 'summary count and sum', query: 'count($rpc) | sum($rpc)', metrics: [summary] },
  { name: 'uniq of series', query: 'uniq($req)', metrics: [counter] },
  { name: 'uniq of an attribute', query: 'uniq($mem.host.name)', metrics: [gauge] },
  { name: 'uniq of two attributes', query: 'uniq($req, host.name, route) as n', metrics: [counter] },
  {
    name: 'where scoped to one metric',
    query: '$req | p50($lat) | where $lat.http.route = "/a"',
    metrics: [counter, histogram],
  },
  {
    name: 'group by scoped to one metric',
    query: '$req | p50($lat) | group by $lat.host.name',
    metrics: [counter, histogram],
  },
  {
    name: 'arithmetic between metrics',
    query: 'per_min($req) / per_min(count($lat)) as ratio | group by host.name',
    metrics: [counter, histogram],
  },
  { name: 'same occurrence used twice is one query', query: '$req as a | $req * 2 as b', metrics: [counter] },
  { name: 'hourly rollup for long ranges', query: 'per_min($req)', metrics: [counter], hours: true },
  { name: 'hourly rollup gauge', query: 'max($mem)', metrics: [gauge], hours: true },
  {
    name: 'hourly rollup before the watermark',
    query: 'per_min($req)',
    metrics: [counter],
    hours: true,
    watermark: true,
  },
  {
    name: 'hourly rollup gauge grouped, before the watermark',
    query: '$mem | group by host.name',
    metrics: [gauge],
    hours: true,
    watermark: true,
  },
  {
    name: 'hourly rollup histogram filtered, before the watermark',
    query: 'p99($lat) | where http.route = "/a"',
    metrics: [histogram],
    hours: true,
    watermark: true,
  },
  {
    name: 'minutes with series found before and after the watermark',
    query: '$req | group by host.name',
    metrics: [counter],
    watermark: true,
  },
];
