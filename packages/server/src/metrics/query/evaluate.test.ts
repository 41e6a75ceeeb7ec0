import { describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { evaluateColumns, seriesName, type Series } from './evaluate';
import { planQuery, type MetricRef, type Mode } from './plan';
import { fixedGrid, timeGrid, type TimeGrid } from './timeRange';

const grid = fixedGrid(new Date('2026-01-01T10:00:00Z'), 2, 3);
const req: MetricRef = { name: 'app.req', alias: 'req', instrument: 'counter', unit: '' };
const err: MetricRef = { name: 'app.err', alias: 'err', instrument: 'counter', unit: '' };
const lat: MetricRef = { name: 'app.lat', alias: 'lat', instrument: 'histogram', unit: 'milliseconds' };
const host = (h: string, values: number[]): Series => ({ keys: ['host'], attrs: { host: h }, values });

/** Plans `query`, feeds each planned query the given series (by metric name), evaluates. */
function run(
  query: string,
  metrics: MetricRef[],
  data: Record<string, Series[]>,
  mode: Mode = 'timeseries',
  g: TimeGrid = grid,
) {
  const plan = planQuery(parseMetricsQuery(query), metrics, mode);
  const results = plan.queries.map((q) => data[`${q.metric}:${q.agg}`] ?? data[q.metric] ?? []);
  const cols = evaluateColumns(plan.columns, {
    mode,
    grid: g,
    results,
    groupings: plan.queries.map((q) => (q.grouping === 'all' ? 'all' : q.grouping.join(','))),
  });
  return { plan, cols };
}

describe('evaluateColumns', () => {
  it('divides per_min by the bucket minutes in timeseries mode', () => {
    const { cols } = run('per_min($req)', [req], { 'app.req': [{ keys: [], attrs: {}, values: [10, NaN, 4] }] });
    expect(cols[0].set!.series[0].values).toEqual([5, NaN, 2]);
  });

  it('divides a last bucket cut short by the range end by its own minutes, not the bucket length', () => {
    // 24 h ending during 10:37: 15-minute buckets, the last one [10:30, 10:37) of 7 minutes.
    const g = timeGrid('2026-01-01T10:38:00Z', '2026-01-02T10:38:00Z', Date.parse('2026-01-02T10:37:20Z'));
    expect(g.bucketMin).toBe(15);
    const values = new Array<number>(g.points).fill(150);
    values[g.points - 1] = 70; // 10 a minute throughout
    const { cols } = run('per_min($req)', [req], { 'app.req': [{ keys: [], attrs: {}, values }] }, 'timeseries', g);
    expect(cols[0].set!.series[0].values.slice(-2)).toEqual([10, 10]);
    // Over the whole range, too: the total over the minutes the grid covers.
    const table = run('per_min($req)', [req], { 'app.req': [{ keys: [], attrs: {}, values }] }, 'table', g);
    expect(table.cols[0].set!.series[0].values[0]).toBeCloseTo(10, 9);
  });

  it('joins two metrics by attributes; a missing count is 0 (a rate over traffic with no errors is 0), a missing divisor a gap', () => {
    const data = {
      'app.req': [host('a', [10, 10, 10]), host('b', [4, NaN, 4])],
      'app.err': [host('a', [1, 2, NaN])],
    };
    const { cols } = run('$err / $req as ratio | $err + $req as total | group by host', [req, err], data);
    const ratio = Object.fromEntries(cols[0].set!.series.map((s) => [s.attrs.host, s.values]));
    expect(ratio).toEqual({ a: [0.1, 0.2, 0], b: [0, NaN, 0] });
    const total = Object.fromEntries(cols[1].set!.series.map((s) => [s.attrs.host, s.values]));
    expect(total).toEqual({ a: [11, 12, 10], b: [4, 0, 4] });
  });

  it('reads 0 for a count with no series in table mode too; an average that is missing stays a gap', () => {
    const data = { 'app.req': [host('a', [10, 10, 10]), host('b', [4, 4, 4])], 'app.err': [host('a', [1, 2, NaN])] };
    const { cols } = run('$err / $req as ratio | group by host', [req, err], data, 'table');
    const ratio = Object.fromEntries(cols[0].set!.series.map((s) => [s.attrs.host, s.values]));
    expect(ratio).toEqual({ a: [0.1], b: [0] });
    // An average is no count: where it is missing, so is the result.
    const gauges = run('avg($lat) / $req as per_req | group by host', [req, lat], {
      'app.req': [host('a', [10, 10, 10])],
      'app.lat': [host('b', [5, 5, 5])],
    });
    const perReq = Object.fromEntries(gauges.cols[0].set!.series.map((s) => [s.attrs.host, s.values]));
    expect(perReq).toEqual({ a: [NaN, NaN, NaN], b: [NaN, NaN, NaN] });
  });

  it('compares with <= as <= (not <), and returns 1/0', () => {
    const { cols } = run('$req <= 4', [req], { 'app.req': [{ keys: [], attrs: {}, values: [3, 4, 5] }] });
    expect(cols[0].set!.series[0].values).toEqual([1, 1, 0]);
  });

  it('converts duration literals into the series unit', () => {
    const { cols } = run('p99($lat) > 100ms', [lat], { 'app.lat': [{ keys: [], attrs: {}, values: [50, 150, NaN] }] });
    expect(cols[0].set!.series[0].values).toEqual([0, 1, NaN]);
    const bad = run('count($lat) > 100ms', [lat], { 'app.lat': [{ keys: [], attrs: {}, values: [1] }] });
    expect(bad.cols[0].error).toBe('can\'t convert 100ms from "nanoseconds" to ""');
  });

  it('returns NaN for % by zero instead of failing', () => {
    const { cols } = run('$req % 0', [req], { 'app.req': [{ keys: [], attrs: {}, values: [3, 4, 5] }] });
    expect(cols[0].set!.series[0].values).toEqual([NaN, NaN, NaN]);
  });

  it('reduces series to one number in table mode, then does the arithmetic', () => {
    const data = { 'app.req': [host('a', [9, 0, 9])], 'app.err': [host('a', [1, 1, NaN])] };
    const { cols } = run(
      '$req as _r | $err as _e | _e / (_e + _r) as ratio | per_min($req) as rpm | group by host',
      [req, err],
      data,
      'table',
    );
    // The table says how the range became one number.
    expect(cols.map((c) => c.set!.over)).toEqual([
      'total over the range',
      'total over the range',
      'over the range',
      'avg per minute over the range',
    ]);
    expect(cols.map((c) => [c.column.name, c.set!.series[0].values[0]])).toEqual([
      ['_r', 18],
      ['_e', 2],
      ['ratio', 0.1],
      ['rpm', 3],
    ]);
  });

  it('refuses to join different groupings and `group by all`', () => {
    const plan = planQuery(parseMetricsQuery('$req + $err | group by $req.host'), [req, err], 'timeseries');
    const cols = evaluateColumns(plan.columns, {
      mode: 'timeseries',
      grid,
      results: [[host('a', [1, 1, 1])], [{ keys: [], attrs: {}, values: [1, 1, 1] }]],
      groupings: ['host', ''],
    });
    expect(cols[0].error).toBe("can't join timeseries with different grouping");
  });

  it('names series by the expression with filters and attributes, or by alias', () => {
    const { cols } = run('per_min($req{type=hits}) | $req as total | group by host', [req], {
      'app.req': [host('a', [1, 1, 1])],
    });
    expect(seriesName(cols[0].column, cols[0].set!.series[0])).toBe('per_min($req{type=hits,host=a})');
    expect(seriesName(cols[1].column, cols[1].set!.series[0])).toBe('total{host=a}');
  });
});

describe('planQuery errors', () => {
  const errors = (q: string, metrics: MetricRef[] = [req, lat], mode: Mode = 'timeseries') => [
    ...planQuery(parseMetricsQuery(q), metrics, mode).partErrors.values(),
  ];
  it.each([
    ['$lat', 'histogram instrument requires a func'],
    ['avg($req)', 'counter instrument does not support avg'],
    ['$nope', 'can\'t find metric with alias "$nope"'],
    ['foo($req)', 'unsupported func: "foo"'],
    ['per_min($req, $req)', '"per_min" requires a single arg'],
    ['x + 1', 'can\'t resolve name "x"'],
    ['$req | $req', 'column "req" already exists'],
    ['$req | where $req.a = 1 and $lat.b = 2', 'where must reference a single metric: "$req" != "$lat"'],
  ])('%s -> %s', (q, want) => expect(errors(q)).toEqual([want]));

  it('forbids grouping on gauges and individual grouping on tables', () => {
    expect(errors('$req | group by host', [req], 'gauge')).toEqual(['grouping is forbidden']);
    expect(errors('$req | group by $req.host', [req], 'table')).toEqual(['individual grouping is forbidden']);
  });

  it('reports a metric missing from storage', () => {
    expect(errors('$req', [{ ...req, instrument: 'deleted' }])).toEqual(['metric "app.req" not found']);
  });
});
