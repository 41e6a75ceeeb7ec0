import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT1_TOKEN, PROJECT2_TOKEN } from '@lantern/testkit/harness';
import {
  compareMatrices,
  promGet,
  PROMTOOL,
  remoteWriteSamples,
  startBackfilledPrometheus,
  type BackfilledPrometheus,
  type MatrixSeries,
} from '@lantern/testkit/promql';
import { COMPARED_QUERIES, fleetSamples } from '@lantern/testkit/promqlData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Lantern's Prometheus API against a real Prometheus (Debian's 2.42) over the same samples, the way
 * the PromQL compliance tester compares two servers: three hours of a small fleet's metrics are
 * backfilled into Prometheus's TSDB (promtool) and remote-written into Lantern with the same
 * timestamps, then every query of COMPARED_QUERIES is asked of both as a range query at a 60 s
 * step over whole minutes and the answers are compared series by series: the same label sets, the
 * same points, values within a relative 1e-6 (floating-point sums in another order). Also runs
 * on the remote ClickHouse store (the `integration-ch` project).
 */
const server = useLantern();
const samples = fleetSamples(180);
let prom: BackfilledPrometheus;
let lantern: string;
const auth = { authorization: `Bearer ${PROJECT1_TOKEN}` };

// Whole minutes, 20 minutes in (every window of the queries is full) to 10 before the last sample.
const start = samples.startMs + 20 * 60_000;
const end = samples.startMs + (samples.count - 10) * 60_000;
const rangeParams = (query: string) => ({
  query,
  start: String(start / 1000),
  end: String(end / 1000),
  step: '60',
});

beforeAll(async () => {
  const [p] = await Promise.all([
    startBackfilledPrometheus(samples),
    remoteWriteSamples(server.lantern.baseUrl, PROJECT1_TOKEN, samples),
  ]);
  prom = p;
  lantern = `${server.lantern.baseUrl}/api/prometheus`;
}, 120_000);

afterAll(async () => {
  await prom?.stop();
});

async function both(path: string, params: Record<string, string | string[]>) {
  const [want, got] = await Promise.all([promGet(prom.url, path, params), promGet(lantern, path, params, auth)]);
  return { want, got };
}

describe('PromQL range queries answer as Prometheus does over the same samples', () => {
  it.each(COMPARED_QUERIES.map((q) => [q]))('%s', async (query) => {
    const { want, got } = await both('/api/v1/query_range', rangeParams(query));
    expect(want.body.status, `Prometheus: ${want.body.error}`).toBe('success');
    expect(got.body.error ?? '', 'Lantern error').toBe('');
    expect(got.status).toBe(200);
    expect(got.body.data?.resultType).toBe(want.body.data?.resultType);
    const w = want.body.data!.result as MatrixSeries[];
    expect(w.length, 'the query selects something in Prometheus').toBeGreaterThan(
      query.startsWith('absent(demo_up') ? -1 : 0,
    );
    expect(compareMatrices(w, got.body.data!.result as MatrixSeries[])).toEqual([]);
  });

  it('answers instant queries at a whole minute as Prometheus does, GET and POST', async () => {
    const time = String((start + 60 * 60_000) / 1000);
    for (const query of ['sum by (job) (rate(demo_requests_total[5m]))', 'demo_memory_bytes', 'scalar(sum(demo_up))']) {
      const want = await promGet(prom.url, '/api/v1/query', { query, time });
      const post = await fetch(`${lantern}/api/v1/query`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query, time }),
      });
      expect(post.status).toBe(200);
      const got = (await post.json()) as typeof want.body;
      expect(got.data?.resultType).toBe(want.body.data?.resultType);
      if (want.body.data?.resultType === 'vector') {
        const asMatrix = (r: unknown) =>
          (r as { metric: Record<string, string>; value: [number, string] }[]).map((s) => ({
            metric: s.metric,
            values: [s.value],
          }));
        expect(compareMatrices(asMatrix(want.body.data.result), asMatrix(got.data!.result))).toEqual([]);
      } else expect(got.data?.result).toEqual(want.body.data?.result);
    }
  });

  it('lists label names, label values, series and metadata as Prometheus does', async () => {
    const range = { start: String(start / 1000), end: String(end / 1000) };
    const labels = await both('/api/v1/labels', range);
    expect(labels.got.body).toEqual(labels.want.body);
    for (const name of ['__name__', 'job', 'le', 'status'])
      expect((await both(`/api/v1/label/${name}/values`, range)).got.body.data).toEqual(
        (await promGet(prom.url, `/api/v1/label/${name}/values`, range)).body.data,
      );
    const matched = await both('/api/v1/label/instance/values', { ...range, 'match[]': 'demo_up{job="web"}' });
    expect(matched.got.body).toEqual(matched.want.body);
    const sort = (xs: unknown) => (xs as Record<string, string>[]).map((s) => JSON.stringify(s)).sort();
    for (const match of [
      ['demo_latency_seconds_bucket{instance="a:9100", le=~"0.1|\\\\+Inf"}'],
      ['demo_up', 'demo_build_info{job="api"}'],
    ]) {
      const series = await both('/api/v1/series', { ...range, 'match[]': match });
      expect(series.got.body.status).toBe('success');
      expect(sort(series.got.body.data)).toEqual(sort(series.want.body.data));
    }
    const meta = await promGet(lantern, '/api/v1/metadata', {}, auth);
    expect(meta.body.data).toMatchObject({ demo_requests_total: [{ type: 'counter', help: '', unit: '' }] });
  });

  it('shows another project none of these metrics', async () => {
    const other = { authorization: `Bearer ${PROJECT2_TOKEN}` };
    const q = await promGet(lantern, '/api/v1/query_range', rangeParams('demo_memory_bytes'), other);
    expect(q.status).toBe(200);
    expect(q.body.data?.result).toEqual([]);
    const names = await promGet(lantern, '/api/v1/label/__name__/values', {}, other);
    expect(names.body.data).toEqual([]);
  });
});

describe("Lantern's own queries read a remote-written classic histogram as one histogram (issue 41)", () => {
  const family = 'demo_latency_seconds';
  const bounds = [0.05, 0.1, 0.25, 0.5, 1, Infinity];
  const lantern = async (path: string, params: Record<string, string>) => {
    const q = new URLSearchParams({
      time_gte: new Date(start).toISOString(),
      time_lt: new Date(end).toISOString(),
      ...params,
    });
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1${path}?${q}`, {
      headers: { cookie: server.cookie },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  /** The bucket `(lower, upper]` a value is in (`+Inf`'s upper bound is the highest finite one, as `histogram_quantile` answers there). */
  const bucketOf = (v: number) => bounds.findIndex((b, i) => v <= (b === Infinity ? bounds[i - 1] : b));

  it('is listed as a histogram without `le`, its percentiles fall in the bucket of histogram_quantile, its average is _sum / _count', async () => {
    const listed = (await lantern('', {})) as {
      metrics: { name: string; instrument: string; attrKeys: string[]; fromBuckets?: true }[];
    };
    expect(listed.metrics.find((m) => m.name === family)).toMatchObject({
      instrument: 'histogram',
      attrKeys: ['instance', 'job'],
      fromBuckets: true,
    });
    // The buckets' counters stay as they were sent.
    expect(listed.metrics.find((m) => m.name === `${family}_bucket`)).toMatchObject({ instrument: 'counter' });

    const table = (await lantern('/table', {
      metric: family,
      alias: 'h',
      query: 'p50($h) as p50 | p90($h) as p90 | p99($h) as p99 | avg($h) as avg | group by job',
    })) as { items: Record<string, unknown>[] };
    expect(table.items.map((r) => r.job).sort()).toEqual(['api', 'web']);
    const time = String((start + 60 * 60_000) / 1000);
    for (const row of table.items) {
      for (const [col, q] of [
        ['p50', 0.5],
        ['p90', 0.9],
        ['p99', 0.99],
      ] as const) {
        const want = await promGet(prom.url, '/api/v1/query', {
          query: `histogram_quantile(${q}, sum by (le) (rate(${family}_bucket{job="${String(row.job)}"}[5m])))`,
          time,
        });
        const expected = Number((want.body.data!.result as { value: [number, string] }[])[0].value[1]);
        expect(
          bucketOf(row[col] as number),
          `${String(row.job)} ${col}: Lantern ${String(row[col])}, Prometheus ${expected}`,
        ).toBe(bucketOf(expected));
      }
      const avg = await promGet(prom.url, '/api/v1/query', {
        query: `sum(rate(${family}_sum{job="${String(row.job)}"}[5m])) / sum(rate(${family}_count{job="${String(row.job)}"}[5m]))`,
        time,
      });
      const expected = Number((avg.body.data!.result as { value: [number, string] }[])[0].value[1]);
      expect(row.avg as number).toBeCloseTo(expected, 9);
    }
  });

  it('draws its heatmap from the buckets, and its series and attribute values are those without `le`', async () => {
    const heatmap = (await lantern('/heatmap', { metric: family, query: 'where job = api' })) as {
      heatmap: { xAxis: string[]; data: [number, number, number][] };
    };
    const { xAxis, data } = heatmap.heatmap;
    const perColumn = new Map<number, number>();
    for (const [x, , c] of data) perColumn.set(x, (perColumn.get(x) ?? 0) + c);
    // Per minute the api job's two instances observe (3+5+8+4+2+1) x (1 + 2) = 69 values: a column
    // holds them for each of its minutes in the range (the first and last may be cut by the range).
    const bucketMinutes = (Date.parse(xAxis[1]) - Date.parse(xAxis[0])) / 60_000;
    const columns = [...perColumn].sort(([a], [b]) => a - b).map(([, c]) => c);
    expect(columns).toHaveLength(xAxis.length);
    expect(new Set(columns.slice(1, -1))).toEqual(new Set([69 * bucketMinutes]));
    for (const c of [columns[0], columns[columns.length - 1]]) expect([69, 69 * bucketMinutes]).toContain(c);
    const keys = (await lantern('/attr-keys', { metric: family })) as { items: { value: string }[] };
    expect(keys.items.map((k) => k.value).sort()).toEqual(['instance', 'job']);
    const stats = (await lantern('/stats', { search_input: 'latency' })) as {
      metrics: { name: string; numTimeseries: number }[];
    };
    expect(stats.metrics.find((m) => m.name === family)?.numTimeseries).toBe(4);
  });
});

describe('promtool against Lantern answers what it answers against Prometheus', () => {
  const run = promisify(execFile);
  // promtool 2.42 sends the URL's user info as Basic auth: the token is the password.
  const lanternUrl = () => lantern.replace('http://', `http://lantern:${PROJECT1_TOKEN}@`);
  const promtool = async (url: string, [cmd, ...rest]: string[]) =>
    (await run(PROMTOOL, ['query', cmd, url, ...rest])).stdout;
  const t = (ms: number) => String(ms / 1000);
  it.each([
    ['instant', 'sum by (job) (rate(demo_requests_total[5m]))', `--time=${t(start + 3_600_000)}`],
    ['range', 'max by (job) (demo_memory_bytes)', `--start=${t(start)}`, `--end=${t(start + 600_000)}`, '--step=1m'],
    ['labels', 'job', `--start=${t(start)}`, `--end=${t(end)}`],
    ['series', '--match=demo_up', `--start=${t(start)}`, `--end=${t(end)}`],
  ])('promtool query %s %s', async (...args) => {
    const want = await promtool(prom.url, args);
    const got = await promtool(lanternUrl(), args);
    expect(want.length).toBeGreaterThan(0);
    // Values to 12 significant digits: the two compute the same rate in another order.
    const lines = (s: string) =>
      s
        .trim()
        .replace(/-?\d+\.\d+(e[+-]?\d+)?/g, (x) => String(Number(Number(x).toPrecision(12))))
        .split('\n')
        .sort();
    expect(lines(got)).toEqual(lines(want));
  });
});

describe('bad input is refused as Prometheus refuses it', () => {
  it.each([
    ['an unparsable query', { query: 'sum(rate(demo_requests_total[5m])' }],
    ['an unknown function', { query: 'foo(demo_up)' }],
    ['a type error', { query: 'rate(demo_up)' }],
    // The engine places a bad regex at its pattern (1:14), Prometheus at its matcher (1:9): only the
    // kind of error is compared (reported to the engine).
    ['a bad regex', { query: 'demo_up{job=~"("}' }, false],
    ['no query', { query: '' }],
    ['a bad time', { query: 'demo_up', start: 'yesterday' }],
    ['a bad step', { query: 'demo_up', step: '1 minute' }],
    ['a zero step', { query: 'demo_up', step: '0' }],
    ['end before start', { query: 'demo_up', end: String(start / 1000 - 60) }],
    ['too many points', { query: 'demo_up', step: '0.1' }],
  ] as [string, Record<string, string>, boolean?][])('%s', async (_what, params, samePosition = true) => {
    const { want, got } = await both('/api/v1/query_range', { ...rangeParams('demo_up'), ...params });
    expect(want.status).toBe(400);
    expect({ status: got.status, errorType: got.body.errorType }).toEqual({ status: 400, errorType: 'bad_data' });
    // The same parameter is named, and a parse error's position is the same.
    const head = (e = '') => /^(invalid parameter "[^"]+"|\d+:\d+|[^:]*)/.exec(e)?.[0];
    if (samePosition)
      expect(head(got.body.error), `Lantern: ${got.body.error}\nPrometheus: ${want.body.error}`).toBe(
        head(want.body.error),
      );
  });
});
