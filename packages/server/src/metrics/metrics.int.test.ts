import { ExportResultCode } from '@opentelemetry/core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  GaugeResponse,
  HeatmapResponse,
  IngestStatsResponse,
  MetricsListResponse,
  TableResponse,
  MetricTimeseriesResponse,
} from '@lantern/shared';
import { PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';
import {
  AggregationType,
  clearOfMinuteEnd,
  createTestMeter,
  type MetricsTransport,
} from '@lantern/testkit/otlpMetrics';

/**
 * Metrics end to end: the OpenTelemetry JS metrics SDK sends through the real OTLP endpoints
 * (HTTP/protobuf and gRPC, cumulative and delta), and exact values come back through the
 * timeseries, table and gauge endpoints.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the body field by field and check it with expect()
async function api(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.lantern.baseUrl}${path}`, { headers: { cookie: server.cookie } });
  return { status: res.status, body: await res.json() };
}

/** The last hour plus two minutes ahead, on minute boundaries: 62 one-minute buckets. */
function range(): string {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  return `time_gte=${new Date(minute - 3600_000).toISOString()}&time_lt=${new Date(minute + 120_000).toISOString()}`;
}

function metricQuery(metrics: Record<string, string>, query: string): string {
  const m = Object.entries(metrics)
    .map(([alias, name]) => `metric=${encodeURIComponent(name)}&alias=${alias}`)
    .join('&');
  return `${range()}&${m}&query=${encodeURIComponent(query)}`;
}

const meterFor = (
  transport: MetricsTransport,
  service: string,
  extra: { delta?: boolean; views?: Parameters<typeof createTestMeter>[1]['views'] } = {},
) =>
  createTestMeter(transport, {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: service,
    ...extra,
  });

const sumNonNull = (xs: (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

describe.each<[MetricsTransport, boolean]>([
  ['http-proto', false],
  ['grpc', false],
  ['http-proto', true],
])('metrics over %s (delta=%s)', (transport, delta) => {
  const prefix = `t_${transport.replace('-', '_')}_${delta ? 'delta' : 'cum'}`;
  // The exports of a test are summed together: all in one minute.
  beforeEach(() => clearOfMinuteEnd());

  it('counts a counter exactly across exports, per series and per minute', async () => {
    const m = meterFor(transport, prefix, { delta });
    const c = m.meter.createCounter(`${prefix}.requests`, { description: 'Requests served', unit: '{request}' });
    c.add(5, { route: '/a' });
    c.add(3, { route: '/b' });
    await m.flush();
    c.add(7, { route: '/a' });
    await m.flush();
    await m.shutdown();
    expect(m.results.length).toBeGreaterThanOrEqual(2);
    expect(m.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);

    const table = TableResponse.parse(
      (await api(`/api/v1/metrics/1/table?${metricQuery({ c: `${prefix}.requests` }, '$c | group by route')}`)).body,
    );
    expect(table.query.parts.map((p) => p.error)).toEqual(['', '']);
    const byRoute = Object.fromEntries(table.items.map((r) => [r.route, r.c]));
    expect(byRoute).toEqual({ '/a': 12, '/b': 3 });

    const ts = MetricTimeseriesResponse.parse(
      (await api(`/api/v1/metrics/1/timeseries?${metricQuery({ c: `${prefix}.requests` }, 'per_min($c) as rpm')}`))
        .body,
    );
    expect(ts.columns).toEqual([{ name: 'rpm', unit: '{request}', isGroup: false }]);
    expect(ts.timeseries).toHaveLength(1);
    // 1-minute buckets: per_min is the count of each minute, so the buckets add up to the total.
    expect(sumNonNull(ts.timeseries[0].value)).toBe(15);
    expect(ts.time).toHaveLength(ts.timeseries[0].value.length);
  });

  it('keeps the level of an up-down counter and the last value of a gauge', async () => {
    const m = meterFor(transport, prefix, { delta });
    const u = m.meter.createUpDownCounter(`${prefix}.queue`);
    const g = m.meter.createGauge(`${prefix}.temperature`, { unit: 'Cel' });
    u.add(10);
    g.record(40);
    await m.flush();
    u.add(-3);
    g.record(42);
    await m.flush();
    await m.shutdown();
    const gauge = GaugeResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/gauge?${metricQuery({ u: `${prefix}.queue`, g: `${prefix}.temperature` }, '$u | $g')}`,
        )
      ).body,
    );
    expect(gauge.values).toMatchObject({ u: 7, g: 42 });
    expect(gauge.columns.map((c) => [c.name, c.unit])).toEqual([
      ['u', ''],
      ['g', 'cel'],
    ]);
  });

  it('answers histogram percentiles within a bucket, and exact avg and count', async () => {
    const boundaries = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    const m = meterFor(transport, prefix, {
      delta,
      views: [
        {
          instrumentName: `${prefix}.latency`,
          aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries } },
        },
      ],
    });
    const h = m.meter.createHistogram(`${prefix}.latency`, { unit: 'ms' });
    await m.flush(); // an empty first export: the series now exists
    for (let v = 1; v <= 100; v++) h.record(v, { host: 'web-1' });
    await m.flush();
    await m.shutdown();
    const table = TableResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/table?${metricQuery({ h: `${prefix}.latency` }, 'p90($h) as p90 | avg($h) as avg | count($h) as n | per_min(count($h)) as rpm')}`,
        )
      ).body,
    );
    expect(table.query.parts.every((p) => p.error === '')).toBe(true);
    const row = table.items[0];
    expect(Math.abs((row.p90 as number) - 90)).toBeLessThanOrEqual(10);
    expect(row.avg).toBeCloseTo(50.5, 10);
    expect(row.n).toBe(100);
    expect(table.columns.find((c) => c.name === 'p90')?.unit).toBe('milliseconds');
    // The range is 62 one-minute buckets: the rate over the range is 100 / 62 per minute.
    expect(row.rpm as number).toBeCloseTo(100 / 62, 6);

    const heat = HeatmapResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/heatmap?${range()}&metric=${prefix}.latency&query=${encodeURIComponent('where host = web-1')}`,
        )
      ).body,
    );
    expect(heat.query.parts).toEqual([{ query: 'where host = web-1', error: '' }]);
    expect(heat.heatmap.yAxis).toHaveLength(16);
    expect(heat.heatmap.xAxis).toHaveLength(62);
    expect(heat.heatmap.data.reduce((n, [, , c]) => n + c, 0)).toBe(100);
    // Filter terms are capped as for any series: the part that goes over gets the error.
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `host != x${i}`).join(' and ');
    const capped = HeatmapResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/heatmap?${range()}&metric=${prefix}.latency&query=${encodeURIComponent(`where ${terms(60)} | where ${terms(41)}`)}`,
        )
      ).body,
    );
    expect(capped.query.parts.map((p) => p.error)).toEqual(['', 'too many filters: 101 (at most 100)']);
  });

  it("reads a histogram's min and max as exported, and keeps its percentiles inside them", async () => {
    // The SDK's default buckets (made for milliseconds): 0, 5, 10, 25, 50, 75, 100, 250, 500, 750, ...
    const m = meterFor(transport, `${prefix}_range`, { delta });
    const ms = m.meter.createHistogram(`${prefix}.range_ms`, { unit: 'ms' });
    const sec = m.meter.createHistogram(`${prefix}.range_s`, { unit: 's' });
    await m.flush(); // an empty first export: the series now exist
    for (let v = 50; v <= 600; v += 50) ms.record(v);
    for (let v = 10; v <= 350; v += 20) sec.record(v / 1000); // 0.01 .. 0.35 s, all in the (0, 5] bucket
    await m.flush();
    await m.shutdown();
    const read = async (metric: string) =>
      TableResponse.parse(
        (
          await api(
            `/api/v1/metrics/1/table?${metricQuery({ h: metric }, 'min($h) as lo | max($h) as hi | p50($h) as p50 | p99($h) as p99')}`,
          )
        ).body,
      ).items[0] as Record<string, number>;
    const a = await read(`${prefix}.range_ms`);
    // Bucket midpoints would read 37.5 and 625.
    expect([a.lo, a.hi]).toEqual([50, 600]);
    expect(a.p99).toBeLessThanOrEqual(600);
    expect(a.p50).toBeGreaterThanOrEqual(250);
    expect(a.p50).toBeLessThanOrEqual(500);
    const b = await read(`${prefix}.range_s`);
    expect(b.lo).toBeCloseTo(0.01, 10);
    expect(b.hi).toBeCloseTo(0.35, 10);
    // Not the bucket's midpoint 2.5 s: inside the values' range.
    for (const p of [b.p50, b.p99]) {
      expect(p).toBeGreaterThanOrEqual(0.01);
      expect(p).toBeLessThanOrEqual(0.35);
    }
  });

  it('reads exponential histograms with the OTel bucket base', async () => {
    const m = meterFor(transport, prefix, {
      delta,
      views: [
        {
          instrumentName: `${prefix}.exp`,
          aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM, options: { maxSize: 160 } },
        },
      ],
    });
    const h = m.meter.createHistogram(`${prefix}.exp`, { unit: 'ms' });
    await m.flush();
    for (let v = 1; v <= 1000; v++) h.record(v);
    await m.flush();
    await m.shutdown();
    const table = TableResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/table?${metricQuery({ e: `${prefix}.exp` }, 'p50($e) as p50 | p99($e) as p99 | count($e) as n')}`,
        )
      ).body,
    );
    const row = table.items[0];
    expect(row.n).toBe(1000);
    // At the SDK's scale buckets are a few percent wide; a wrong base would be off by far more.
    expect(Math.abs((row.p50 as number) / 500 - 1)).toBeLessThan(0.05);
    expect(Math.abs((row.p99 as number) / 990 - 1)).toBeLessThan(0.05);
  });

  it('joins two metrics by their attributes', async () => {
    const m = meterFor(transport, prefix, { delta });
    const hits = m.meter.createCounter(`${prefix}.cache.hits`);
    const misses = m.meter.createCounter(`${prefix}.cache.misses`);
    hits.add(9, { host: 'a' });
    misses.add(1, { host: 'a' });
    hits.add(1, { host: 'b' });
    misses.add(3, { host: 'b' });
    await m.flush();
    await m.shutdown();
    const q = metricQuery(
      { hits: `${prefix}.cache.hits`, misses: `${prefix}.cache.misses` },
      '$hits as _h | $misses as _m | _h / (_h + _m) as hit_ratio | group by host',
    );
    const table = TableResponse.parse((await api(`/api/v1/metrics/1/table?${q}`)).body);
    expect(table.columns.map((c) => c.name)).toEqual(['hit_ratio', 'host']);
    expect(Object.fromEntries(table.items.map((r) => [r.host, r.hit_ratio]))).toEqual({ a: 0.9, b: 0.25 });
    expect(table.items[0]).toMatchObject({ _name: 'host=a', _query: 'where host = "a"' });
  });
});

describe('metrics endpoints', () => {
  it('lists metrics with instruments, units and attribute keys, and counts series', async () => {
    const m = meterFor('http-proto', 'listing');
    const c = m.meter.createCounter('listing.jobs', { description: 'Jobs done', unit: 's' });
    c.add(1, { queue: 'q1' });
    c.add(1, { queue: 'q2' });
    m.meter.createHistogram('listing.size', { unit: 'By' }).record(10);
    await m.flush();
    await m.shutdown();
    const list = MetricsListResponse.parse((await api('/api/v1/metrics/1')).body);
    const jobs = list.metrics.find((x) => x.name === 'listing.jobs');
    expect(jobs).toMatchObject({ instrument: 'counter', unit: 'seconds', description: 'Jobs done' });
    expect(jobs?.attrKeys).toEqual(['host.name', 'queue', 'service.name']);
    expect(list.metrics.find((x) => x.name === 'listing.size')).toMatchObject({
      instrument: 'histogram',
      unit: 'bytes',
    });

    const stats = (await api(`/api/v1/metrics/1/stats?${range()}&search_input=listing.j`)).body;
    expect(stats.metrics.map((x: { name: string; numTimeseries: number }) => [x.name, x.numTimeseries])).toEqual([
      ['listing.jobs', 2],
    ]);
    expect(stats.hasMore).toBe(false);

    const keys = (await api(`/api/v1/metrics/1/attr-keys?${range()}&metric=listing.jobs`)).body;
    expect(keys.items.map((k: { value: string }) => k.value).sort()).toEqual(['host.name', 'queue', 'service.name']);
    const values = (await api(`/api/v1/metrics/1/attr-values?${range()}&metric=listing.jobs&attr_key=queue`)).body;
    // Each queue is one timeseries of listing.jobs: the count is timeseries, not datapoints.
    expect(values.items.map((v: { value: string; count: number }) => [v.value, v.count])).toEqual([
      ['q1', 1],
      ['q2', 1],
    ]);

    const described = (await api('/api/v1/metrics/1/describe?metric[]=listing.size')).body;
    expect(described.metrics).toHaveLength(1);
  });

  it('marks the metrics derived from spans (metrics_from_spans), and only them', async () => {
    const t = createTestTracer('http-proto', {
      httpUrl: server.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'derived',
    });
    t.tracer.startSpan('GET /derived').end();
    await t.shutdown();
    const describe = async () =>
      MetricsListResponse.parse(
        (await api('/api/v1/metrics/1/describe?metric[]=lantern.tracing.spans&metric[]=listing.size')).body,
      ).metrics.map((m) => [m.name, m.fromSpans]);
    await expect.poll(describe, { timeout: 10_000, interval: 100 }).toEqual([
      ['lantern.tracing.spans', true],
      ['listing.size', undefined],
    ]);
    const listed = MetricsListResponse.parse((await api('/api/v1/metrics/1')).body).metrics;
    expect(listed.filter((m) => m.fromSpans).map((m) => m.name)).toEqual(['lantern.tracing.spans']);
    // The Services dashboard's error rate of a service with traffic and no errors is 0%, not missing.
    const errorRate = async () =>
      TableResponse.parse(
        (
          await api(
            `/api/v1/metrics/1/table?${metricQuery({ spans: 'lantern.tracing.spans' }, 'count($spans{.status_code="error"}) / count($spans) as error_rate | group by service.name')}`,
          )
        ).body,
      ).items.map((r) => [r['service.name'], r.error_rate]);
    await expect.poll(errorRate, { timeout: 10_000, interval: 200 }).toEqual([['derived', 0]]);
    // Operations read by their span group's name, not the `.group_id` number (the id stays the row's key).
    const ops = TableResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/table?${metricQuery({ spans: 'lantern.tracing.spans' }, 'p99($spans) as p99 | group by .group_id')}`,
        )
      ).body,
    ).items;
    expect(ops).toHaveLength(1);
    expect(ops[0]['.group_id']).toMatch(/^\d+$/);
    expect(ops[0]._names).toEqual({ '.group_id': 'GET /derived' });
    expect(ops[0]._name).toBe('GET /derived');
    const legend = MetricTimeseriesResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/timeseries?${metricQuery({ spans: 'lantern.tracing.spans' }, 'per_min(count($spans)) as requests | group by .group_id')}`,
        )
      ).body,
    ).timeseries.map((t) => t.name);
    expect(legend).toEqual(['requests{GET /derived}']);
  });

  it('reports query errors per part and still answers the other parts', async () => {
    const ts = MetricTimeseriesResponse.parse(
      (
        await api(
          `/api/v1/metrics/1/timeseries?${metricQuery({ c: 'listing.jobs', x: 'nope.missing' }, 'sum($c) | $x | avg($c) | group by')}`,
        )
      ).body,
    );
    expect(ts.query.parts.map((p) => p.error)).toEqual([
      '',
      'metric "nope.missing" not found',
      'counter instrument does not support avg',
      'expected an attribute name, got end of input',
    ]);
    expect(ts.columns.map((c) => c.name)).toEqual(['sum($c)']);
  });

  it('takes aliases that start with a digit or an underscore (spec platform §5), not other characters', async () => {
    const m = meterFor('http-proto', 'aliases');
    const c = m.meter.createCounter('aliases.errors');
    c.add(4, { code: '500' });
    c.add(6, { code: '503' });
    await m.flush();
    await m.shutdown();
    const q = metricQuery(
      { '5xx': 'aliases.errors', _all: 'aliases.errors' },
      'sum($5xx) as errors | sum($_all{code=503}) as unavailable | where $5xx.code in (500, 503)',
    );
    const table = TableResponse.parse((await api(`/api/v1/metrics/1/table?${q}`)).body);
    expect(table.query.parts.map((p) => p.error)).toEqual(['', '', '']);
    expect(table.items.map((r) => [r.errors, r.unavailable])).toEqual([[10, 6]]);

    const bad = await api(`/api/v1/metrics/1/table?${metricQuery({ 'a-b': 'aliases.errors' }, 'sum($a)')}`);
    expect(bad).toMatchObject({ status: 400, body: { message: 'invalid alias: "a-b"' } });
  });

  it('validates parameters with 400 {code, message}', async () => {
    const r1 = await api(`/api/v1/metrics/1/timeseries?${range()}&query=$a`);
    expect(r1).toMatchObject({
      status: 400,
      body: { code: 'invalid_metrics', message: 'at least one metric is required' },
    });
    const r2 = await api(`/api/v1/metrics/1/timeseries?${range()}&metric=a&metric=b&alias=a`);
    expect(r2).toMatchObject({ status: 400, body: { message: 'got 2 metrics and 1 aliases' } });
    const r3 = await api(`/api/v1/metrics/1/table?metric=a&alias=a`);
    expect(r3.status).toBe(400);
    expect(r3.body.message).toContain('time_gte is required');
    expect((await api(`/api/v1/metrics/999/timeseries?${range()}`)).status).toBe(404);
    const anon = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`);
    expect(anon.status).toBe(401);
  });

  it('refuses bad OTLP and counts an unknown instrument as rejected', async () => {
    const post = (body: string | Buffer, type: string, token = PROJECT1_TOKEN) =>
      fetch(`${server.lantern.baseUrl}/v1/metrics`, {
        method: 'POST',
        headers: { 'content-type': type, 'lantern-dsn': `http://${token}@x/1` },
        body,
      });
    const bad = await post(Buffer.from([0x0a, 0xff, 0xff]), 'application/x-protobuf');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('invalid_otlp');
    expect((await post('{}', 'application/json', 'nope')).status).toBe(401);
    const now = String(BigInt(Date.now()) * 1_000_000n);
    const res = await post(
      JSON.stringify({
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [
                  { name: 'json.gauge', gauge: { dataPoints: [{ timeUnixNano: now, asDouble: 1.5 }] } },
                  { name: 'json.mystery' },
                ],
              },
            ],
          },
        ],
      }),
      'application/json',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(body.partialSuccess.rejectedDataPoints).toBe('1');
    expect(body.partialSuccess.errorMessage).toContain('unknown instrument');
    const g = GaugeResponse.parse(
      (await api(`/api/v1/metrics/1/gauge?${metricQuery({ g: 'json.gauge' }, '$g')}`)).body,
    );
    expect(g.values.g).toBe(1.5);

    // Ingest's self-telemetry counts datapoints like rows of the other signals.
    const stats = IngestStatsResponse.parse((await api('/api/v1/internal/stats')).body);
    expect(stats.signals.metrics.acceptedRows).toBeGreaterThan(0);
    expect(stats.signals.metrics.rejectedRows).toBeGreaterThanOrEqual(1); // json.mystery
    expect(stats.signals.metrics.rejectedRequests).toBeGreaterThanOrEqual(2); // bad protobuf, unknown token
  });
});

describe('the current minute', () => {
  const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
  /** An OTLP/JSON export of `metrics`. */
  const postMetrics = (metrics: unknown[]) =>
    fetch(`${server.lantern.baseUrl}/v1/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PROJECT1_TOKEN}` },
      body: JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics }] }] }),
    });
  /** A delta counter's points: [time (ms), value]. */
  const sendCounter = (name: string, points: [number, number][]) =>
    postMetrics([
      {
        name,
        sum: {
          aggregationTemporality: 1,
          isMonotonic: true,
          dataPoints: points.map(([t, v]) => ({ startTimeUnixNano: ns(t - 10_000), timeUnixNano: ns(t), asDouble: v })),
        },
      },
    ]);
  it("does not draw a counter's unfinished minute as a drop; a metric with nothing else shows it", async () => {
    // A minute with 20 s left at least, so it stays the current one.
    await clearOfMinuteEnd(20_000);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    // 60 a minute, exported every 10 s: the current minute has had one export so far.
    const points: [number, number][] = [];
    for (let t = minute - 180_000; t < minute; t += 10_000) points.push([t + 5_000, 10]);
    points.push([minute + 5_000, 10]);
    expect((await sendCounter('minute.requests', points)).status).toBe(200);
    expect((await sendCounter('minute.fresh', [[minute + 5_000, 4]])).status).toBe(200);
    const series = async (name: string, query: string) => {
      for (let i = 0; i < 50; i++) {
        const r = MetricTimeseriesResponse.parse(
          (await api(`/api/v1/metrics/1/timeseries?${metricQuery({ c: name }, query)}`)).body,
        );
        const s = r.timeseries[0];
        if (s) return Object.fromEntries(r.time.map((t, j) => [Date.parse(t) - minute, s.value[j]]));
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`no series of ${name}`);
    };
    const rate = await series('minute.requests', 'per_min(sum($c))');
    expect([rate[-180_000], rate[-120_000], rate[-60_000], rate[0], rate[60_000]]).toEqual([60, 60, 60, null, null]);
    const total = await series('minute.requests', 'sum($c)');
    expect(total[-60_000]).toBe(60);
    expect(total[0]).toBe(null);
    expect((await series('minute.fresh', 'sum($c)'))[0]).toBe(4);
    const table = TableResponse.parse(
      (await api(`/api/v1/metrics/1/table?${metricQuery({ c: 'minute.requests' }, 'per_min(sum($c)) as rpm')}`)).body,
    );
    expect(table.items[0].rpm).toBeCloseTo((3 * 60) / 60, 9);
    // A heatmap counts too: its last column is not a faded one.
    const histogram = (t: number, count: number) => ({
      startTimeUnixNano: ns(t - 60_000),
      timeUnixNano: ns(t),
      count: String(count),
      sum: count * 20,
      explicitBounds: [10, 100],
      bucketCounts: ['0', String(count), '0'],
    });
    const latency = await postMetrics([
      {
        name: 'minute.latency',
        unit: 'ms',
        histogram: {
          aggregationTemporality: 1,
          dataPoints: [histogram(minute - 115_000, 10), histogram(minute - 55_000, 10), histogram(minute + 5_000, 3)],
        },
      },
    ]);
    expect(latency.status).toBe(200);
    let cells = 0;
    for (let i = 0; i < 50 && cells === 0; i++) {
      const heat = HeatmapResponse.parse(
        (await api(`/api/v1/metrics/1/heatmap?${range()}&metric=minute.latency`)).body,
      );
      cells = heat.heatmap.data.reduce((n, [, , c]) => n + c, 0);
      if (cells === 0) await new Promise((res) => setTimeout(res, 100));
    }
    expect(cells).toBe(20);
    expect(Date.now() - minute).toBeLessThan(60_000);
  }, 90_000);
});
