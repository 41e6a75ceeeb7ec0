import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT1_TOKEN, PROJECT2_TOKEN } from '@lantern/testkit/harness';
import { promGet, remoteWriteSamples, type MatrixSeries } from '@lantern/testkit/promql';
import { fleetSamples } from '@lantern/testkit/promqlData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The Prometheus API's own rules, on Lantern alone: who may ask (a project token as bearer or as
 * Basic password, the session under /api/prometheus/<projectId>), the series limit (a `sum by`
 * pushed down into storage stays under it), the timeout, the endpoints Grafana calls besides
 * queries, and OTLP metrics under their UTF-8 and exporter names with `histogram_quantile` on
 * buckets derived from their stored histograms.
 */
const server = useLantern({ env: { LANTERN_PROMETHEUS_MAX_SERIES: '5' } });
const samples = fleetSamples(30);
const bearer = { authorization: `Bearer ${PROJECT1_TOKEN}` };
let api: string;
const minute = Math.floor(Date.now() / 60_000) * 60_000;
const range = (query: string) => ({
  query,
  start: String((minute - 20 * 60_000) / 1000),
  end: String((minute - 5 * 60_000) / 1000),
  step: '60',
});

/** Delta histograms of `http.server.duration` (ms) over OTLP/JSON, one a minute: 8 in (10, 100], 2 in (100, 1000]. */
async function sendOtlpHistograms(): Promise<void> {
  const dataPoints = Array.from({ length: 25 }, (_, i) => {
    const t = minute - (25 - i) * 60_000 + 30_000;
    return {
      attributes: [{ key: 'http.route', value: { stringValue: '/cart' } }],
      startTimeUnixNano: `${t - 60_000}000000`,
      timeUnixNano: `${t}000000`,
      count: '10',
      sum: 1500,
      bucketCounts: ['0', '8', '2', '0'],
      explicitBounds: [10, 100, 1000],
    };
  });
  const body = {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
        scopeMetrics: [
          {
            scope: {},
            metrics: [
              { name: 'http.server.duration', unit: 'ms', histogram: { aggregationTemporality: 1, dataPoints } },
            ],
          },
        ],
      },
    ],
  };
  const res = await fetch(`${server.lantern.baseUrl}/v1/metrics`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  api = `${server.lantern.baseUrl}/api/prometheus`;
  await remoteWriteSamples(server.lantern.baseUrl, PROJECT1_TOKEN, samples);
  await sendOtlpHistograms();
});

describe('the Prometheus API: access', () => {
  it('asks for a project token: none or an unknown one is 401 in Prometheus error shape', async () => {
    const none = await promGet(api, '/api/v1/query', { query: 'demo_up' });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 'error', errorType: 'unauthorized' });
    const wrong = await promGet(api, '/api/v1/query', { query: 'demo_up' }, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const basicWrong = await promGet(api, '/api/v1/labels', {}, { authorization: `Basic ${btoa('grafana:nope')}` });
    expect(basicWrong.status).toBe(401);
  });

  it('takes the token as bearer or as Basic password, and another project sees nothing of this one', async () => {
    const basic = await promGet(
      api,
      '/api/v1/query',
      { query: 'count(demo_up)' },
      {
        authorization: `Basic ${btoa(`grafana:${PROJECT1_TOKEN}`)}`,
      },
    );
    expect(basic.status).toBe(200);
    expect(basic.body.data).toMatchObject({
      resultType: 'vector',
      result: [{ metric: {}, value: [expect.any(Number), '4'] }],
    });
    const other = await promGet(
      api,
      '/api/v1/query',
      { query: 'count(demo_up)' },
      { authorization: `Bearer ${PROJECT2_TOKEN}` },
    );
    expect(other.body.data).toEqual({ resultType: 'vector', result: [] });
    const otherSeries = await promGet(
      api,
      '/api/v1/series',
      { 'match[]': 'demo_up' },
      { authorization: `Bearer ${PROJECT2_TOKEN}` },
    );
    expect(otherSeries.body.data).toEqual([]);
  });

  it('serves the signed-in session under /api/prometheus/<projectId>, and only with one', async () => {
    const withCookie = await promGet(
      `${api}/1`,
      '/api/v1/query',
      { query: 'count(demo_up)' },
      { cookie: server.cookie },
    );
    expect(withCookie.status).toBe(200);
    expect(withCookie.body.data).toMatchObject({ result: [{ value: [expect.any(Number), '4'] }] });
    const project2 = await promGet(`${api}/2`, '/api/v1/query', { query: 'count(demo_up)' }, { cookie: server.cookie });
    expect(project2.body.data).toEqual({ resultType: 'vector', result: [] });
    expect((await promGet(`${api}/1`, '/api/v1/query', { query: 'demo_up' })).status).toBe(401);
    expect((await promGet(`${api}/1`, '/api/v1/query', { query: 'demo_up' }, bearer)).status).toBe(401);
    expect((await promGet(`${api}/99`, '/api/v1/query', { query: 'demo_up' }, { cookie: server.cookie })).status).toBe(
      404,
    );
  });
});

describe('the Prometheus API: dashboard variables (issue 41)', () => {
  const ask = async (query: string, vars: string[]) => {
    // As a PromQL panel asks: a form-encoded POST to the session's path, its picks as var=name=value.
    const body = new URLSearchParams({ query, time: String(minute / 1000 - 300) });
    for (const v of vars) body.append('var', v);
    const res = await fetch(`${api}/1/api/v1/query`, {
      method: 'POST',
      headers: { cookie: server.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const answer = (await res.json()) as { data?: { result: { metric: Record<string, string>; value: unknown[] }[] } };
    expect(res.status).toBe(200);
    return answer.data!.result.map((r) => `${Object.values(r.metric).join(',')}=${String(r.value[1])}`).sort();
  };

  it('writes the picked values into $name and ${name}: one, several as (a|b), All as .*, a label list', async () => {
    const byJob = 'count by (job) (demo_up{job="$job"})';
    expect(await ask(byJob, ['job=api'])).toEqual(['api=2']);
    expect(await ask(byJob, ['job=api', 'job=web'])).toEqual(['api=2', 'web=2']);
    expect(await ask(byJob, ['job=$__all'])).toEqual(['api=2', 'web=2']);
    expect(await ask('count(demo_up{job=~"${job}", instance=~"$instance"})', ['job=web', 'instance=b:9100'])).toEqual([
      '=1',
    ]);
    // A regex character in a value is matched as itself.
    expect(await ask('count(demo_up{instance=~"$instance"})', ['instance=a.9100'])).toEqual([]);
    expect(await ask('count by ($group) (demo_up)', ['group=job', 'group=instance'])).toHaveLength(4);
    // No picks (a plain Prometheus client): the query is read as written.
    expect(await ask(byJob, [])).toEqual([]);
  });
});

describe('the Prometheus API: limits', () => {
  it('refuses a query over more series than the limit with 422, but not a sum pushed down into storage', async () => {
    const raw = await promGet(api, '/api/v1/query_range', range('rate(demo_requests_total[5m])'), bearer);
    expect(raw.status).toBe(422);
    expect(raw.body).toMatchObject({
      status: 'error',
      errorType: 'execution',
      error: expect.stringMatching(/more than 5 series/),
    });
    // 16 series, summed per job in ClickHouse: 2 reach the engine.
    const summed = await promGet(
      api,
      '/api/v1/query_range',
      range('sum by (job) (rate(demo_requests_total[5m]))'),
      bearer,
    );
    expect(summed.status).toBe(200);
    expect((summed.body.data!.result as MatrixSeries[]).map((s) => s.metric)).toEqual([{ job: 'api' }, { job: 'web' }]);
  });

  it('answers 503 timeout when the query runs past its timeout', async () => {
    const slow = await promGet(
      api,
      '/api/v1/query_range',
      { ...range('sum by (job) (rate(demo_requests_total[5m]))'), timeout: '1ms' },
      bearer,
    );
    expect(slow.status).toBe(503);
    expect(slow.body).toMatchObject({ status: 'error', errorType: 'timeout' });
  });
});

describe('the Prometheus API: what Grafana calls besides queries', () => {
  it('answers build info, metadata, and empty rules, alerts and exemplars', async () => {
    const get = async (path: string, params: Record<string, string> = {}) => {
      const r = await promGet(api, path, params, bearer);
      expect(r.status, path).toBe(200);
      return r.body;
    };
    expect((await get('/api/v1/status/buildinfo')).data).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
    expect(await get('/api/v1/rules')).toEqual({ status: 'success', data: { groups: [] } });
    expect(await get('/api/v1/alerts')).toEqual({ status: 'success', data: { alerts: [] } });
    expect(await get('/api/v1/query_exemplars', { query: 'demo_up' })).toEqual({ status: 'success', data: [] });
    const meta = await get('/api/v1/metadata');
    expect(meta.data).toMatchObject({
      demo_requests_total: [{ type: 'counter' }],
      demo_memory_bytes: [{ type: 'gauge' }],
      http_server_duration_milliseconds: [{ type: 'histogram', unit: 'milliseconds' }],
    });
    expect(Object.keys((await get('/api/v1/metadata', { metric: 'demo_up' })).data as object)).toEqual(['demo_up']);
  });

  it('lists OTLP metrics under their UTF-8 and exporter names, labels escaped as Prometheus escapes them', async () => {
    const names = (await promGet(api, '/api/v1/label/__name__/values', {}, bearer)).body.data as unknown as string[];
    expect(names).toEqual(
      expect.arrayContaining([
        'http.server.duration_bucket',
        'http_server_duration_milliseconds_bucket',
        'http_server_duration_milliseconds_count',
      ]),
    );
    const routes = await promGet(api, '/api/v1/label/U__http_2e_route/values', {}, bearer);
    expect(routes.body.data).toEqual(['/cart']);
    const les = await promGet(
      api,
      '/api/v1/label/le/values',
      { 'match[]': 'http_server_duration_milliseconds_bucket' },
      bearer,
    );
    // One bound per stored bucket, a value inside it (ingest/histogram.ts), and +Inf.
    const bounds = (les.body.data as unknown as string[])
      .filter((le) => le !== '+Inf')
      .map(Number)
      .sort((a, b) => a - b);
    expect(les.body.data).toContain('+Inf');
    expect(bounds).toHaveLength(2);
    expect(bounds[0] > 10 && bounds[0] <= 100 && bounds[1] > 100 && bounds[1] <= 1000, String(bounds)).toBe(true);
  });

  it('computes histogram_quantile over buckets derived from stored OTLP histograms, within the true bucket', async () => {
    for (const [q, name, lo, hi] of [
      [0.5, 'http_server_duration_milliseconds_bucket', 10, 100],
      [0.9, '"http.server.duration_bucket"', 100, 1000],
    ] as const) {
      const query = `histogram_quantile(${q}, sum by (le) (rate({__name__=${name.startsWith('"') ? name : `"${name}"`}}[5m])))`;
      const r = await promGet(api, '/api/v1/query_range', range(query), bearer);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const values = (r.body.data!.result as MatrixSeries[])[0].values.map(([, v]) => Number(v));
      expect(values.length).toBeGreaterThan(10);
      for (const v of values) {
        expect(v).toBeGreaterThan(lo);
        expect(v).toBeLessThanOrEqual(hi);
      }
    }
  });
});
