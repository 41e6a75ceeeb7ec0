import { AggregationType, clearOfMinuteEnd, createTestMeter } from '@lantern/testkit/otlpMetrics';
import type { TestLantern } from '@lantern/testkit/useLantern';

/**
 * The "Shop" data and dashboard of the dashboard browser tests: requests per host and route and a
 * latency histogram sent by the OpenTelemetry metrics SDK, and a grid of a broken panel, a chart, a
 * table and two gauges.
 */
export const HOSTS = ['web-1', 'web-2', 'web-3'];

/** Requests per host and route (a counter) and request latency per host (a histogram), two exports. */
async function sendShopMetrics(server: TestLantern): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
    views: [
      {
        instrumentName: 'shop.latency',
        aggregation: {
          type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM,
          options: { boundaries: [5, 10, 25, 50, 100, 250, 500] },
        },
      },
    ],
  });
  const requests = m.meter.createCounter('shop.requests', { description: 'Requests served', unit: '{request}' });
  const latency = m.meter.createHistogram('shop.latency', { description: 'Request latency', unit: 'ms' });
  await clearOfMinuteEnd();
  for (let round = 0; round < 2; round++) {
    HOSTS.forEach((host, i) => {
      requests.add(10 * (i + 1), { host, route: '/cart' });
      requests.add(5 * (i + 1), { host, route: '/pay' });
      for (let v = 1; v <= 40; v++) latency.record(v * (i + 1) * 3, { host });
    });
    await m.flush();
  }
  await m.shutdown();
}

/** A JSON call with the default login's session. */
export function apiAs(server: TestLantern) {
  return async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.lantern.baseUrl}${path}`, {
      method,
      headers: { cookie: server.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
    return data as T;
  };
}

/** Sends the shop metrics, waits until both are queryable and makes the Shop dashboard; its id. */
export async function createShopDashboard(server: TestLantern): Promise<string> {
  const api = apiAs(server);
  await sendShopMetrics(server);
  // Wait until both metrics are queryable.
  for (let i = 0; i < 100; i++) {
    const list = await api<{ metrics: { name: string }[] }>('GET', '/api/v1/metrics/1');
    if (list.metrics.some((m) => m.name === 'shop.latency') && list.metrics.some((m) => m.name === 'shop.requests'))
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const dashId = (await api<{ dashboard: { id: string } }>('POST', '/api/v1/metrics/1/dashboards', { name: 'Shop' }))
    .dashboard.id;
  // A panel whose query the server cannot run: a counter has no avg.
  await api('POST', `/api/v1/metrics/1/dashboards/${dashId}/grid`, {
    type: 'chart',
    name: 'Broken panel',
    params: { chartKind: 'line', metrics: [{ name: 'shop.requests', alias: 'req' }], query: 'avg($req)' },
  });
  const base = `/api/v1/metrics/1/dashboards/${dashId}`;
  const req = [{ name: 'shop.requests', alias: 'req' }];
  await api('POST', `${base}/grid`, {
    type: 'chart',
    name: 'Requests by host',
    params: { chartKind: 'line', metrics: req, query: 'sum($req) | group by host' },
  });
  await api('POST', `${base}/grid`, {
    type: 'table',
    name: 'Requests by route',
    params: { metrics: req, query: 'sum($req) | group by route' },
  });
  await api('POST', `${base}/gauges`, {
    dashKind: 'grid',
    name: 'All requests',
    description: 'Requests served',
    metrics: req,
    query: 'sum($req)',
  });
  await api('POST', `${base}/gauges`, {
    dashKind: 'grid',
    name: 'web-1',
    description: 'Requests on web-1',
    metrics: req,
    query: 'sum($req) | where host = web-1',
  });
  return dashId;
}
