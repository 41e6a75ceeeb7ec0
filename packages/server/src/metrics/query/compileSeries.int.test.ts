import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { sql } from '../../storage/sql';
import { openChdbStore, type TelemetryStore } from '../../storage/telemetry';
import { QUARTER_HOURS_MIGRATION } from '../../storage/telemetry/metricsSchema';
import type { DatapointRow } from '../ingest';
import { seriesHash } from '../ingest/metricSeries';
import { compileSeriesQuery } from './compileSeries';
import { goldenWatermark } from './golden';
import { GOLDEN_CASES } from './goldenCases';
import { planQuery } from './plan';
import { fixedGrid, type TimeGrid } from './timeRange';

/**
 * Every golden query runs on the real engine (embedded chDB) over seeded datapoints, and a few
 * answers are checked value by value.
 */
let dir: string;
let store: TelemetryStore;
const start = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 - 3600_000); // the previous full hour
const minute = (i: number) => start.getTime() / 1000 + i * 60;

function row(
  metric: string,
  instrument: DatapointRow['instrument'],
  i: number,
  attrs: Record<string, string>,
  v: Partial<DatapointRow>,
): DatapointRow {
  const keys = Object.keys(attrs).sort();
  const values = keys.map((k) => attrs[k]);
  return {
    project_id: 1,
    metric,
    time: minute(i),
    attrs_hash: seriesHash(keys, values),
    instrument,
    min: 0,
    max: 0,
    sum: 0,
    count: 0,
    gauge: 0,
    histogram: [[], []],
    string_keys: keys,
    string_values: values,
    ...v,
  };
}

/** A metrics_catalog row of project 1, written at minute 0. */
function catalogRow(
  name: string,
  v: { instrument: string; attr_keys: string[]; description?: string; unit?: string },
): Record<string, unknown> {
  return { project_id: 1, name, description: '', unit: '', created_at: minute(0), updated_at: minute(0), ...v };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-mql-'));
  store = openChdbStore({ path: dir, ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2e9, maxThreads: 2 });
  await store.migrate();
  const web1 = { 'host.name': 'web-1', route: '/a', code: '200' };
  const web2 = { 'host.name': 'web-2', route: '/b', code: '503' };
  await store.insertRows('datapoint_minutes', [
    row('app.req', 'counter', 5, web1, { sum: 5, count: 1 }),
    row('app.req', 'counter', 5, web2, { sum: 3, count: 1 }),
    row('app.req', 'counter', 6, web1, { sum: 7, count: 1 }),
    row('app.mem', 'gauge', 5, web1, { gauge: 100, min: 100, max: 100 }),
    row('app.mem', 'gauge', 5, web2, { gauge: 300, min: 300, max: 300 }),
    row('app.conns', 'additive', 5, web1, { gauge: 4, min: 4, max: 4 }),
    row('app.conns', 'additive', 5, web2, { gauge: 6, min: 6, max: 6 }),
    row('app.lat', 'histogram', 5, web1, {
      sum: 100,
      count: 10,
      min: 1,
      max: 30,
      histogram: [
        [5, 15, 25],
        [5, 3, 2],
      ],
    }),
    row('app.rpc', 'summary', 5, web1, { sum: 6, count: 3, min: 1, max: 3 }),
  ]);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(query: string, metrics: (typeof GOLDEN_CASES)[number]['metrics']) {
  const grid = fixedGrid(start, 1, 60);
  const plan = planQuery(parseMetricsQuery(query), metrics, 'timeseries');
  expect([...plan.partErrors]).toEqual([]);
  return Promise.all(plan.queries.map((q) => store.query<Record<string, unknown>>(compileSeriesQuery(1, q, grid))));
}

describe('golden metrics queries on the real engine', () => {
  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s runs', async (_n, c) => {
    const grid = c.hours ? fixedGrid(new Date(start.getTime() - 6 * 86_400_000), 120, 84) : fixedGrid(start, 1, 60);
    const plan = planQuery(parseMetricsQuery(c.query), c.metrics, c.mode ?? 'timeseries', c.search ?? '');
    for (const q of plan.queries)
      await expect(store.query(compileSeriesQuery(1, q, grid, goldenWatermark(c, grid)))).resolves.toBeInstanceOf(
        Array,
      );
  });

  const counter = { name: 'app.req', alias: 'req', instrument: 'counter' as const, unit: '' };
  it('sums a counter per bucket and per group', async () => {
    const [[all]] = await run('$req', [counter]);
    expect(all).toMatchObject({ times: [minute(5), minute(6)], values: [8, 7] });
    const [byHost] = await run('$req | group by host.name', [counter]);
    expect(byHost.map((r) => [r.g0, r.values]).sort()).toEqual([
      ['web-1', [5, 7]],
      ['web-2', [3]],
    ]);
    const [filtered] = await run('$req | where code <= 299', [counter]);
    expect(filtered[0].values).toEqual([5, 7]);
  });

  it('averages and sums the last values of gauges and additive series', async () => {
    const [[avg]] = await run('$mem', [{ name: 'app.mem', alias: 'mem', instrument: 'gauge', unit: 'bytes' }]);
    expect(avg.values).toEqual([200]);
    const [[sum]] = await run('$conns', [{ name: 'app.conns', alias: 'conns', instrument: 'additive', unit: '' }]);
    expect(sum.values).toEqual([10]);
  });

  it('reads percentiles, avg and count of a histogram and a summary', async () => {
    const lat = { name: 'app.lat', alias: 'lat', instrument: 'histogram' as const, unit: 'milliseconds' };
    const [[p50], [p90], [avg], [n]] = await run('p50($lat) | p90($lat) | avg($lat) | count($lat)', [lat]);
    expect([p50.values, p90.values, avg.values, n.values]).toEqual([[5], [25], [10], [10]]);
    const [[rpc]] = await run('avg($rpc)', [{ name: 'app.rpc', alias: 'rpc', instrument: 'summary', unit: 'seconds' }]);
    expect(rpc.values).toEqual([2]);
  });

  it('counts series and distinct attribute values', async () => {
    const [[series], [hosts]] = await run('uniq($req) | uniq($req.host.name) as hosts', [counter]);
    expect(series.values).toEqual([2, 1]);
    expect(hosts.values).toEqual([2, 1]);
  });
});

describe('the 15-minute rollup', () => {
  const metrics = [
    { name: 'q.req', alias: 'req', instrument: 'counter' as const, unit: '' },
    { name: 'q.mem', alias: 'mem', instrument: 'gauge' as const, unit: 'bytes' },
    { name: 'q.lat', alias: 'lat', instrument: 'histogram' as const, unit: 'milliseconds' },
  ];
  const queries = [
    'per_min($req) | group by host.name',
    "$req | where route = '/a'",
    'uniq($req.route) as routes',
    '$mem | min($mem) as lo | max($mem) as hi | group by all',
    'p90($lat) | avg($lat) | count($lat) | group by host.name',
  ];
  const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
  /** Each query over 4 buckets of 15 minutes, read from `table`. */
  const answers = async (table: TimeGrid['table']) => {
    const grid: TimeGrid = { ...fixedGrid(start, 15, 4), table };
    const out: string[][] = [];
    for (const query of queries) {
      const plan = planQuery(parseMetricsQuery(query), metrics, 'timeseries');
      expect([...plan.partErrors], query).toEqual([]);
      for (const q of plan.queries) out.push(sorted(await store.query(compileSeriesQuery(1, q, grid))));
    }
    return out;
  };

  it('answers a 15-minute grid as the minutes do, kept by the store and refilled by its migration', async () => {
    const a = { 'host.name': 'a', route: '/a' };
    const b = { 'host.name': 'b', route: '/b' };
    const rows: DatapointRow[] = [];
    for (const i of [1, 14, 15, 16, 40, 59]) {
      rows.push(
        row('q.req', 'counter', i, a, { sum: i, count: 1 }),
        row('q.req', 'counter', i, b, { sum: 2 * i, count: 1 }),
      );
      rows.push(row('q.mem', 'gauge', i, i < 30 ? a : b, { gauge: 10 * i, min: 10 * i - 5, max: 10 * i + 5 }));
      rows.push(
        row('q.lat', 'histogram', i, a, {
          sum: 3 * i,
          count: i,
          min: 1,
          max: 9,
          histogram: [
            [1, 5, 9],
            [i, 1, i % 3],
          ],
        }),
      );
    }
    // Two inserts, as two ingest batches would be.
    await store.insertRows('datapoint_minutes', rows.slice(0, 9));
    await store.insertRows('datapoint_minutes', rows.slice(9));
    const fromMinutes = await answers('datapoint_minutes');
    expect(fromMinutes.flat().length).toBeGreaterThan(8);
    expect(await answers('datapoint_15m')).toEqual(fromMinutes);

    // A database from before the rollup: its migration fills it from the stored minutes.
    await store.query(sql`TRUNCATE TABLE datapoint_15m`);
    expect(await answers('datapoint_15m')).not.toEqual(fromMinutes);
    const backfill = QUARTER_HOURS_MIGRATION.statements({ spansDays: 30, metricsDays: 90 }).find((s) =>
      s.startsWith('INSERT'),
    )!;
    await store.query(sql(Object.assign([backfill], { raw: [backfill] })));
    expect(await answers('datapoint_15m')).toEqual(fromMinutes);
  });
});

describe('metric monitors through the engine (MetricQueryRunner)', () => {
  it('answers one value per minute per series of the column, and refuses unknown metrics', async () => {
    const { createMetricsStore } = await import('../metrics.store');
    const { createMetricsQueryService } = await import('../metricsQuery.service');
    const { createMetricQueryRunner } = await import('../metricQueryRunner');
    const { MetricQueryError } = await import('../../alerting');
    await store.insertRows('metrics_catalog', [
      catalogRow('app.req', { instrument: 'counter', attr_keys: ['code', 'host.name', 'route'] }),
    ]);
    const runner = createMetricQueryRunner(
      createMetricsQueryService({ store: createMetricsStore(store), telemetry: store }),
    );
    const metrics = [{ name: 'app.req', alias: 'req' }];
    expect(
      await runner.columns({
        projectId: 1,
        metrics,
        query: 'per_min($req) as rpm | $req as _hidden | group by host.name',
      }),
    ).toEqual(['rpm']);
    const series = await runner.series({
      projectId: 1,
      metrics,
      query: 'per_min($req) as rpm | group by host.name',
      column: 'rpm',
      from: new Date(minute(4) * 1000),
      to: new Date(minute(8) * 1000),
    });
    expect(series.sort((a, b) => a.attrs['host.name'].localeCompare(b.attrs['host.name']))).toEqual([
      { attrs: { 'host.name': 'web-1' }, values: [null, 5, 7, null] },
      { attrs: { 'host.name': 'web-2' }, values: [null, 3, null, null] },
    ]);
    await expect(
      runner.columns({ projectId: 1, metrics: [{ name: 'nope', alias: 'x' }], query: '$x' }),
    ).rejects.toMatchObject({ kind: 'unknown_metric', message: 'metric nope does not exist' });
    await expect(runner.columns({ projectId: 1, metrics, query: 'avg(' })).rejects.toBeInstanceOf(MetricQueryError);
  });
});

describe('the catalogue entries the query engine describes', () => {
  it('are read once for a burst of panels, and a name not in the catalogue is asked every time', async () => {
    const { createMetricsStore } = await import('../metrics.store');
    await store.insertRows('metrics_catalog', [
      catalogRow('app.described', {
        description: 'Described once',
        unit: 'ms',
        instrument: 'histogram',
        attr_keys: ['route'],
      }),
    ]);
    let reads = 0;
    const metrics = createMetricsStore({
      ...store,
      query: (q) => {
        reads++;
        return store.query(q);
      },
    });
    const first = await metrics.describe(1, ['app.described', 'app.described']);
    expect(first.map((m) => [m.name, m.unit, m.instrument])).toEqual([['app.described', 'ms', 'histogram']]);
    // A caller's change to its answer is its own.
    first[0].unit = 'changed';
    expect((await metrics.describe(1, ['app.described']))[0].unit).toBe('ms');
    expect(reads).toBe(1);
    expect(await metrics.describe(1, ['app.unknown'])).toEqual([]);
    expect(await metrics.describe(1, ['app.unknown', 'app.described'])).toHaveLength(1);
    expect(reads).toBe(3);
  });
});
