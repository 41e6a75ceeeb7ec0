import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMetricsQuery } from '@lantern/shared';
import { compileSeriesQuery } from './query/compileSeries';
import { planQuery } from './query/plan';
import { fixedGrid, type TimeGrid } from './query/timeRange';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../metricsFromSpans';
import { sql, type SqlFragment } from '../storage/sql';
import { stageDatapoints } from '../storage/telemetry';
import { openChdbStore } from '../storage/telemetry/chdbStore';
import { ROLLUP_LAG_MINUTES } from '../storage/telemetry/datapointRollups';
import { HOURS_VIEW, QUARTER_HOURS_MIGRATION } from '../storage/telemetry/metricsSchema';
import type { SpanRow } from '../storage/telemetry/spanRow';
import type { TelemetryStore } from '../storage/telemetry/telemetryStore';
import { testSpanRow } from '../storage/telemetry/testSpanRow';

/**
 * The embedded store's rollups kept by the application (storage/telemetry/datapointRollups.ts,
 * docs/decisions/datapoint-rollups.md): rows reach `datapoint_15m` / `datapoint_hours` once their
 * window is rolled up, late rows at once, a window re-run after a crash is not counted twice, and
 * the migration from the views keeps every total. Queries see the same answers throughout.
 */
const MIN = 60_000;
const HOUR = 3_600_000;
const limits = { ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2e9, maxThreads: 2, spanMetrics: null };

const dirs: string[] = [];
const stores: TelemetryStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(dir: string, extra: Partial<Parameters<typeof openChdbStore>[0]> = {}): TelemetryStore {
  const store = openChdbStore({ path: dir, ...limits, rollupIntervalMs: 0, ...extra });
  stores.push(store);
  return store;
}
function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'lantern-rollups-'));
  dirs.push(d);
  return d;
}
async function close(store: TelemetryStore) {
  await store.close();
  stores.splice(stores.indexOf(store), 1);
}
const text = (s: string): SqlFragment => sql(Object.assign([s], { raw: [s] }));

/**
 * Datapoints of a counter (two series), a gauge and a histogram at the given times (ms). Late
 * rows come without the gauge: a rollup bucket's gauge is the last written, late or not, as with
 * the views.
 */
function rows(times: number[], scale = 1, gauge = true) {
  return times.flatMap((t, i) => {
    const base = { project_id: 1, time: t / 1000, string_keys: ['host.name'], min: 0, max: 0, sum: 0, count: 0 };
    return [
      {
        ...base,
        metric: 'r.req',
        attrs_hash: '1',
        instrument: 'counter',
        sum: (i + 1) * scale,
        count: 1,
        string_values: ['a'],
      },
      {
        ...base,
        metric: 'r.req',
        attrs_hash: '2',
        instrument: 'counter',
        sum: 10 * scale,
        count: 1,
        string_values: ['b'],
      },
      ...(gauge
        ? [
            {
              ...base,
              metric: 'r.mem',
              attrs_hash: '3',
              instrument: 'gauge',
              gauge: t / MIN,
              min: i,
              max: 50 + i,
              string_values: ['a'],
            },
          ]
        : []),
      {
        ...base,
        metric: 'r.lat',
        attrs_hash: '4',
        instrument: 'histogram',
        sum: 6,
        count: 3 * scale,
        min: 1,
        max: 9,
        histogram: [
          [1, 5, 9],
          [scale, scale, scale],
        ],
        string_values: ['a'],
      },
    ];
  });
}

const metrics = [
  { name: 'r.req', alias: 'req', instrument: 'counter' as const, unit: '' },
  { name: 'r.mem', alias: 'mem', instrument: 'gauge' as const, unit: 'bytes' },
  { name: 'r.lat', alias: 'lat', instrument: 'histogram' as const, unit: 'milliseconds' },
];
const queries = [
  '$req',
  'per_min($req) | group by host.name',
  "$req | where host.name = 'a'",
  'uniq($req.host.name) as hosts',
  '$mem | min($mem) as lo | max($mem) as hi | group by all',
  'p50($lat) | p90($lat) | count($lat) | group by host.name',
];

/** Every query over `grid` read from `table` (with the store's watermark), answers sorted. */
async function answers(store: TelemetryStore, grid: TimeGrid, table: TimeGrid['table']): Promise<string[][]> {
  const out: string[][] = [];
  for (const query of queries) {
    const plan = planQuery(parseMetricsQuery(query), metrics, 'timeseries');
    expect([...plan.partErrors], query).toEqual([]);
    for (const q of plan.queries) {
      const got = await store.readRollups((w) => store.query(compileSeriesQuery(1, q, { ...grid, table }, w)));
      out.push(got.map((r) => JSON.stringify(r)).sort());
    }
  }
  return out;
}

/** The 15-minute and hourly grids answer as the minutes do. */
async function expectGridsAsMinutes(store: TelemetryStore, from: number) {
  for (const grid of [fixedGrid(new Date(from), 15, 16), fixedGrid(new Date(from), 60, 4)]) {
    const minutes = await answers(store, grid, 'datapoint_minutes');
    expect(minutes.flat().length).toBeGreaterThan(5);
    expect(await answers(store, grid, grid.table)).toEqual(minutes);
  }
}

/** Sums of each table as stored (FINAL folds rows of a key): what the rollups hold. */
async function totals(store: TelemetryStore, table: string) {
  const [r] = await store.query<Record<string, string | number>>(
    text(
      `SELECT sum(sum) AS sum, sum(count) AS count, max(max) AS max, min(min) AS min, arraySum(sumMap(histogram).2) AS buckets FROM ${table}`,
    ),
  );
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
}
async function expectRollupsComplete(store: TelemetryStore) {
  const minutes = await totals(store, 'datapoint_minutes');
  expect(minutes.sum).toBeGreaterThan(0);
  expect(await totals(store, 'datapoint_15m')).toEqual(minutes);
  expect(await totals(store, 'datapoint_hours')).toEqual(minutes);
}
const rollupRows = async (store: TelemetryStore, table: string) =>
  Number((await store.query<{ n: string }>(text(`SELECT count() AS n FROM ${table}`)))[0].n);

describe('datapoint rollups kept by the embedded store', () => {
  it('rolls rows up once their window closes; queries see them before and after', async () => {
    const store = open(newDir());
    await store.migrate();
    const w0 = store.rollupWatermark()!.getTime();
    expect(w0 % HOUR).toBe(0); // the migration starts at the current hour
    await store.insertRows('datapoint_minutes', rows([1, 14, 16, 40, 75, 119].map((m) => w0 + m * MIN)));
    // Nothing is late: only the minutes have them, and the grids read the minutes from the watermark on.
    expect(await rollupRows(store, 'datapoint_15m')).toBe(0);
    expect(await rollupRows(store, 'datapoint_hours')).toBe(0);
    await expectGridsAsMinutes(store, w0 - HOUR);

    // The window [w0, now - lag) is rolled up: minutes 1, 14 and 16, not 40.
    await store.rollUp(new Date(w0 + (20 + ROLLUP_LAG_MINUTES) * MIN + 20_000));
    expect(store.rollupWatermark()!.getTime()).toBe(w0 + 20 * MIN);
    const [q] = await store.query<{ n: string }>(
      text(`SELECT sum(count) AS n FROM datapoint_15m WHERE metric = 'r.req'`),
    );
    expect(Number(q.n)).toBe(6);
    await expectGridsAsMinutes(store, w0 - HOUR);

    // Catch-up over two hours, in windows within an hour: everything is in the rollups.
    await store.rollUp(new Date(w0 + 3 * HOUR));
    expect(store.rollupWatermark()!.getTime()).toBe(w0 + 3 * HOUR - ROLLUP_LAG_MINUTES * MIN);
    await expectRollupsComplete(store);
    // The first hour was rolled in two windows (to minute 20, then the rest): until the engine
    // merges its two rows, a gauge's last value there is either row's (both carry the hour's
    // start; docs/decisions/datapoint-rollups.md). Merged, it is the later window's.
    for (const table of ['datapoint_15m', 'datapoint_hours']) await store.query(text(`OPTIMIZE TABLE ${table} FINAL`));
    await expectGridsAsMinutes(store, w0 - HOUR);
  });

  it('puts late rows (older than the watermark) into the rollups at once', async () => {
    const store = open(newDir());
    await store.migrate();
    const w0 = store.rollupWatermark()!.getTime();
    await store.insertRows('datapoint_minutes', rows([5, 50].map((m) => w0 + m * MIN)));
    await store.rollUp(new Date(w0 + 2 * HOUR));
    await expectRollupsComplete(store);
    // Late by JSON rows, by a staged OTLP batch and by the metrics from spans' lines: all at once.
    await store.insertRows(
      'datapoint_minutes',
      rows(
        [10, 70].map((m) => w0 + m * MIN),
        3,
        false,
      ),
    );
    await expectRollupsComplete(store);
    await expectGridsAsMinutes(store, w0 - HOUR);
    const line = (m: number, sum: number) =>
      `1\tr.req\t${(w0 + m * MIN) / 1000}\t1\tcounter\t0\t0\t${sum}\t1\t0\t([],[])\t['host.name']\t['a']\n`;
    await store.insertStagedDatapoints([
      stageDatapoints(store.stagingDir, line(20, 7) + line(200, 11), 2, 0, (w0 + 20 * MIN) / 1000),
    ]);
    expect((await totals(store, 'datapoint_15m')).sum).toBe((await totals(store, 'datapoint_minutes')).sum - 11);
    await store.rollUp(new Date(w0 + 5 * HOUR));
    await expectRollupsComplete(store);
  });

  it('rolls up late metrics from spans at once, with their batch', async () => {
    const store = open(newDir(), { spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS) });
    await store.migrate();
    const w0 = store.rollupWatermark()!.getTime();
    const span = (ms: number, id: bigint): SpanRow => testSpanRow({ id, timeNs: BigInt(ms) * 1_000_000n });
    // One span before the watermark (late), one after it.
    await store.insertSpans([span(w0 - 90 * MIN, 1n), span(w0 + 2 * MIN, 2n)]);
    const spans = async (table: string) =>
      Number(
        (
          await store.query<{ n: string }>(
            text(`SELECT sum(count) AS n FROM ${table} WHERE metric = 'lantern.tracing.spans'`),
          )
        )[0].n,
      );
    expect(await spans('datapoint_minutes')).toBe(2);
    expect(await spans('datapoint_15m')).toBe(1);
    expect(await spans('datapoint_hours')).toBe(1);
    await store.rollUp(new Date(w0 + HOUR));
    expect(await spans('datapoint_15m')).toBe(2);
    expect(await spans('datapoint_hours')).toBe(2);
  });

  it('does not count a window twice when it is run again after a crash between its inserts and its watermark', async () => {
    const dir = newDir();
    let crash = true;
    const store = open(dir, {
      afterRollupInsert: () => {
        if (crash) throw new Error('simulated crash');
      },
    });
    await store.migrate();
    const w0 = store.rollupWatermark()!.getTime();
    await store.insertRows('datapoint_minutes', rows([1, 20, 50, 70, 130].map((m) => w0 + m * MIN)));
    await expect(store.rollUp(new Date(w0 + 3 * HOUR))).rejects.toThrow(/simulated crash/);
    // The window's rows are in the rollups, its watermark is not recorded; queries still answer right.
    expect(await rollupRows(store, 'datapoint_15m')).toBeGreaterThan(0);
    await expectGridsAsMinutes(store, w0 - HOUR);
    // The process dies there; the next one starts on the same data.
    await close(store);
    crash = false;
    const again = open(dir);
    await again.migrate();
    expect(again.rollupWatermark()!.getTime()).toBe(w0);
    await again.rollUp(new Date(w0 + 3 * HOUR));
    await expectRollupsComplete(again);
    await expectGridsAsMinutes(again, w0 - HOUR);
    await close(again);

    // The same in one process: a window that failed is recovered by the next run.
    const third = open(newDir(), {
      afterRollupInsert: () => {
        if (crash) {
          crash = false;
          throw new Error('simulated failure');
        }
      },
    });
    await third.migrate();
    const w1 = third.rollupWatermark()!.getTime();
    await third.insertRows('datapoint_minutes', rows([1, 20, 50, 70, 130].map((m) => w1 + m * MIN)));
    crash = false;
    await third.rollUp(new Date(w1 + 30 * MIN));
    crash = true;
    await expect(third.rollUp(new Date(w1 + 3 * HOUR))).rejects.toThrow(/simulated failure/);
    await expectGridsAsMinutes(third, w1 - HOUR);
    await third.rollUp(new Date(w1 + 3 * HOUR));
    await expectRollupsComplete(third);
  });

  it('keeps every total across the migration from the views to the job', async () => {
    const dir = newDir();
    const first = open(dir);
    await first.migrate();
    // A database of the version before: the views, no migration 9, no watermark.
    const w0 = first.rollupWatermark()!.getTime();
    for (const s of [
      `ALTER TABLE lantern_migrations DELETE WHERE version = 9 SETTINGS mutations_sync = 1`,
      `DROP TABLE datapoint_rollup_state`,
      HOURS_VIEW(true),
      QUARTER_HOURS_MIGRATION.statements(limits.ttl).find((x) => x.startsWith('CREATE MATERIALIZED VIEW'))!,
    ])
      await first.query(text(s));
    await close(first);
    const old = open(dir);
    // Rows before the current hour and in it, written by the views into the rollups.
    await old.insertRows('datapoint_minutes', rows([-130, -61, -20, -1, 0, 10, 16, 59].map((m) => w0 + m * MIN)));
    expect(old.rollupWatermark()).toBeNull();
    await expectRollupsComplete(old);
    const before = await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 15, 24), 'datapoint_15m');
    const hoursBefore = await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 60, 6), 'datapoint_hours');

    await old.migrate();
    const views = await old.query<{ name: string }>(
      text(`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'datapoint%_mv'`),
    );
    expect(views).toEqual([]);
    // The current hour's rollup rows were deleted; the watermark is at its start.
    expect(old.rollupWatermark()!.getTime()).toBeLessThanOrEqual(w0 + HOUR);
    expect(await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 15, 24), 'datapoint_15m')).toEqual(before);
    expect(await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 60, 6), 'datapoint_hours')).toEqual(hoursBefore);
    await old.rollUp(new Date(w0 + 3 * HOUR));
    await expectRollupsComplete(old);
    expect(await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 15, 24), 'datapoint_15m')).toEqual(before);
    expect(await answers(old, fixedGrid(new Date(w0 - 3 * HOUR), 60, 6), 'datapoint_hours')).toEqual(hoursBefore);
  });
});
