import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChdbStore } from '../../storage/telemetry/chdbStore';
import type { TelemetryStore } from '../../storage/telemetry/telemetryStore';
import { SeriesLimitError, type SelectRequest, type SourceSeries } from './engine';
import { createPromSource } from './promSource';

/**
 * The PromQL engine's source over a real embedded store: names (OTLP and Prometheus), the four
 * matcher kinds as SQL, counters with their base, gauges, up-down sums, buckets derived from stored
 * histogram maps, `sum by` summed in ClickHouse, the series limit, abort, and projects kept apart.
 */
const MIN = 60_000;
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
let dir: string;
let store: TelemetryStore;

const base = { min: 0, max: 0, sum: 0, count: 0, gauge: 0, histogram: [[], []] };
function row(
  metric: string,
  instrument: string,
  hash: string,
  attrs: Record<string, string>,
  minute: number,
  v: object,
  project = 1,
) {
  return {
    ...base,
    project_id: project,
    metric,
    instrument,
    attrs_hash: hash,
    time: (T0 + minute * MIN) / 1000,
    string_keys: Object.keys(attrs).sort(),
    string_values: Object.keys(attrs)
      .sort()
      .map((k) => attrs[k]),
    ...v,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-promsource-'));
  store = openChdbStore({
    path: dir,
    ttl: { spansDays: 30, metricsDays: 90 },
    maxMemoryUsage: 2e9,
    maxThreads: 2,
    spanMetrics: null,
    rollupIntervalMs: 0,
  });
  await store.migrate();
  const rows = [];
  for (let m = 0; m < 10; m++) {
    // Counter deltas per minute: job a/status 200: 1, a/500: 2, b/200: 4.
    rows.push(row('http.server.requests', 'counter', '1', { job: 'a', status: '200' }, m, { sum: 1, count: 1 }));
    rows.push(row('http.server.requests', 'counter', '2', { job: 'a', status: '500' }, m, { sum: 2, count: 1 }));
    rows.push(row('http.server.requests', 'counter', '3', { job: 'ab', status: '200' }, m, { sum: 4, count: 1 }));
    rows.push(row('process.memory.usage', 'additive', '4', { job: 'a' }, m, { gauge: 100 + m }));
    rows.push(row('up', 'gauge', '5', { job: 'a' }, m, { gauge: 1 }));
    rows.push(
      row('http.server.duration', 'histogram', '6', { job: 'a' }, m, {
        sum: 30,
        count: 6,
        histogram: [
          [5, 50],
          [4, 2],
        ],
      }),
    );
    rows.push(
      row('http.server.duration', 'histogram', '7', { job: 'b' }, m, {
        sum: 30,
        count: 1,
        histogram: [[500], [1]],
      }),
    );
    rows.push(row('up', 'gauge', '5', { job: 'a' }, m, { gauge: 7 }, 2));
  }
  await store.insertRows('datapoint_minutes', rows);
  const at = Math.floor(T0 / 1000);
  await store.insertRows(
    'metrics_catalog',
    [
      ['http.server.requests', 'counter', ''],
      ['process.memory.usage', 'additive', 'bytes'],
      ['up', 'gauge', ''],
      ['http.server.duration', 'histogram', 'milliseconds'],
    ].map(([name, instrument, unit]) => ({
      project_id: 1,
      name,
      instrument,
      unit,
      description: '',
      attr_keys: ['job'],
      created_at: at,
      updated_at: at,
    })),
  );
}, 120_000);

afterAll(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const source = (maxSeries = 1000, projectId = 1) => createPromSource({ telemetry: store, projectId, maxSeries });
const req = (matchers: SelectRequest['matchers'], more: Partial<SelectRequest> = {}): SelectRequest => ({
  matchers,
  startMs: T0 + 2 * MIN,
  endMs: T0 + 6 * MIN,
  needBase: false,
  ...more,
});
const name = (value: string) => ({ name: '__name__', type: '=' as const, value });
const signal = () => new AbortController().signal;
const plain = (s: SourceSeries[]) =>
  s
    .map((x) => ({ labels: x.labels, kind: x.kind, times: [...x.times], values: [...x.values], base: x.base }))
    .sort((a, b) => (JSON.stringify(a.labels) < JSON.stringify(b.labels) ? -1 : 1));
const minutes = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => T0 + (from + i) * MIN);

describe('PromSource over the datapoint tables', () => {
  it('selects a counter under its exporter name with the minutes of [start, end) and its base', async () => {
    const r = await source().select(
      req([name('http_server_requests_total'), { name: 'job', type: '=', value: 'a' }], { needBase: true }),
      signal(),
    );
    expect(r.pushedDown).toBe(false);
    expect(plain(r.series)).toEqual([
      {
        labels: { __name__: 'http_server_requests_total', job: 'a', status: '200' },
        kind: 'counter',
        times: minutes(2, 6),
        values: [1, 1, 1, 1],
        base: 2,
      },
      {
        labels: { __name__: 'http_server_requests_total', job: 'a', status: '500' },
        kind: 'counter',
        times: minutes(2, 6),
        values: [2, 2, 2, 2],
        base: 4,
      },
    ]);
  });

  it('answers the UTF-8 name too, and matches regexes fully anchored', async () => {
    const utf8 = await source().select(req([name('http.server.requests')]), signal());
    expect(utf8.series.map((s) => s.labels.job).sort()).toEqual(['a', 'a', 'ab']);
    const re = await source().select(
      req([
        { name: '__name__', type: '=~', value: 'http_server_.*_total' },
        { name: 'job', type: '=~', value: 'a' },
      ]),
      signal(),
    );
    expect(re.series.map((s) => s.labels.status).sort()).toEqual(['200', '500']);
    const not = await source().select(
      req([
        name('http_server_requests_total'),
        { name: 'status', type: '!~', value: '5..' },
        { name: 'job', type: '!=', value: 'a' },
      ]),
      signal(),
    );
    expect(not.series.map((s) => s.labels)).toEqual([
      { __name__: 'http_server_requests_total', job: 'ab', status: '200' },
    ]);
  });

  it("takes RE2's (?i) in name and label regexes", async () => {
    const r = await source().select(
      req([
        { name: '__name__', type: '=~', value: '(?i)UP' },
        { name: 'job', type: '=~', value: '(?i)A' },
      ]),
      signal(),
    );
    expect(r.series.map((s) => s.labels)).toEqual([{ __name__: 'up', job: 'a' }]);
  });

  it('reads gauges and up-down sums as gauges (the last value of each minute)', async () => {
    const r = await source().select(req([name('process_memory_usage_bytes')]), signal());
    expect(plain(r.series)).toEqual([
      {
        labels: { __name__: 'process_memory_usage_bytes', job: 'a' },
        kind: 'gauge',
        times: minutes(2, 6),
        values: [102, 103, 104, 105],
        base: 0,
      },
    ]);
  });

  it('sums counters per group and minute in storage (sum by), not gauges', async () => {
    const r = await source().select(
      req([name('http_server_requests_total')], { sumBy: { without: false, labels: ['job'] } }),
      signal(),
    );
    expect(r.pushedDown).toBe(true);
    expect(plain(r.series)).toEqual([
      { labels: { job: 'a' }, kind: 'counter', times: minutes(2, 6), values: [3, 3, 3, 3], base: 0 },
      { labels: { job: 'ab' }, kind: 'counter', times: minutes(2, 6), values: [4, 4, 4, 4], base: 0 },
    ]);
    const without = await source().select(
      req([name('http_server_requests_total')], { sumBy: { without: true, labels: ['job'] } }),
      signal(),
    );
    expect(plain(without.series).map((s) => [s.labels, s.values[0]])).toEqual([
      [{ status: '200' }, 5],
      [{ status: '500' }, 2],
    ]);
    const gauge = await source().select(req([name('up')], { sumBy: { without: false, labels: [] } }), signal());
    expect(gauge.pushedDown).toBe(false);
    expect(gauge.series).toHaveLength(1);
  });

  it('derives cumulative le buckets from stored histogram maps, one set of bounds per metric', async () => {
    const r = await source().select(
      req([name('http_server_duration_milliseconds_bucket'), { name: 'job', type: '=', value: 'a' }]),
      signal(),
    );
    expect(plain(r.series).map((s) => [s.labels.le, s.values[0]])).toEqual([
      ['+Inf', 6],
      ['5', 4],
      ['50', 6],
    ]);
    const withBase = await source().select(
      req([name('http_server_duration_milliseconds_bucket'), { name: 'job', type: '=', value: 'a' }], {
        needBase: true,
      }),
      signal(),
    );
    expect(plain(withBase.series).map((s) => [s.labels.le, s.base])).toEqual([
      ['+Inf', 12],
      ['5', 8],
      ['50', 12],
    ]);
    const byLe = await source().select(
      req([name('http_server_duration_milliseconds_bucket')], { sumBy: { without: false, labels: ['le'] } }),
      signal(),
    );
    expect(byLe.pushedDown).toBe(true);
    expect(plain(byLe.series).map((s) => [s.labels, s.values[0]])).toEqual([
      [{ le: '+Inf' }, 7],
      [{ le: '5' }, 4],
      [{ le: '50' }, 6],
      [{ le: '500' }, 7],
    ]);
    const count = await source().select(req([name('http.server.duration_count')]), signal());
    expect(count.series.map((s) => s.values[0]).sort()).toEqual([1, 6]);
    const le = await source().select(
      req([name('http_server_duration_milliseconds_bucket'), { name: 'le', type: '=', value: '+Inf' }]),
      signal(),
    );
    expect(le.series).toHaveLength(2);
  });

  it('refuses more series than its limit, stops on abort, and shows one project only', async () => {
    await expect(source(2).select(req([name('http_server_requests_total')]), signal())).rejects.toBeInstanceOf(
      SeriesLimitError,
    );
    const ctrl = new AbortController();
    ctrl.abort(new Error('stop'));
    await expect(source().select(req([name('up')]), ctrl.signal)).rejects.toThrow('stop');
    // Project 2 has rows of `up` but no catalogue: nothing; project 1's `up` is 1, not 7.
    expect((await source(1000, 2).select(req([name('up')]), signal())).series).toEqual([]);
    expect((await source().select(req([name('up')]), signal())).series[0].values[0]).toBe(1);
  });
});
