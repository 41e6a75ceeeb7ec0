import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceGraphResponse, ServiceGraphSeriesResponse } from '@lantern/shared';
import { signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The service graph (issue 36) from real traffic: three Node processes instrumented by the
 * OpenTelemetry SDK's HTTP auto-instrumentation (testkit serviceGraphApp.ts) call each other over
 * real HTTP and export their spans in batches over OTLP; `checkout` fails every 4th request, calls
 * a server that sends no spans and makes database client spans. More spans come from the SDK with
 * chosen times: a call whose client and server halves are exported in two requests, the server's
 * a minute after the client's in span time; a producer span; a service that calls nobody.
 *
 * The job runs every second (interval 1 s) and a client span waits 5 s for its server half.
 */
const WAIT_SECONDS = 5;
const ENV = {
  LANTERN_SERVICE_GRAPH_WAIT_SECONDS: String(WAIT_SECONDS),
  LANTERN_SERVICE_GRAPH_INTERVAL_SECONDS: '1',
  LANTERN_INGEST_FLUSH_INTERVAL_MS: '50',
  LANTERN_LOG_LEVEL: 'info',
};
const server = useLantern({ env: ENV });
const APP = fileURLToPath(new URL('../../../../testkit/src/serviceGraphApp.ts', import.meta.url));
const REQUESTS = 12;
const FAIL_EVERY = 4;

const apps: ChildProcess[] = [];
let bare: Server;
let barePort = 0;
const t0 = Date.now();
const range = () => ({
  time_gte: new Date(t0 - 3600_000).toISOString(),
  time_lt: new Date(t0 + 10 * 60_000).toISOString(),
});

async function startApp(service: string, env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', APP], {
    env: {
      ...process.env,
      SG_SERVICE: service,
      SG_OTLP_URL: `${server.lantern.baseUrl}/v1/traces`,
      SG_DSN: server.dsn,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  apps.push(child);
  let out = '';
  for await (const chunk of child.stdout) {
    out += String(chunk);
    const m = /listening (\d+)/.exec(out);
    if (m) return Number(m[1]);
  }
  throw new Error(`${service} exited before listening`);
}

async function get(lantern: RunningLantern, cookie: string, path: string, params: Record<string, string>) {
  const qs = new URLSearchParams(params);
  const res = await fetch(`${lantern.baseUrl}/api/v1/tracing/${path}?${qs}`, { headers: { cookie } });
  return { status: res.status, body: await res.json() };
}
async function graph(lantern = server.lantern, cookie = server.cookie) {
  const res = await get(lantern, cookie, '1/service-graph', range());
  expect(res.status).toBe(200);
  return ServiceGraphResponse.parse(res.body);
}
const edge = (g: ServiceGraphResponse, client: string, srv: string) =>
  g.edges.find((e) => e.client === client && e.server === srv);
const node = (g: ServiceGraphResponse, name: string) => g.nodes.find((n) => n.name === name);

/** The graph once every call below is in it (the halves of a call may come in any order). */
async function settledGraph(lantern = server.lantern, cookie = server.cookie) {
  let last: ServiceGraphResponse | undefined;
  await expect
    .poll(
      async () => {
        last = await graph(lantern, cookie);
        return [
          edge(last, 'user', 'frontend')?.calls,
          edge(last, 'frontend', 'checkout')?.calls,
          edge(last, 'checkout', 'inventory')?.calls,
          edge(last, 'checkout', `127.0.0.1:${barePort}`)?.calls,
          edge(last, 'checkout', 'postgresql/shop')?.calls,
          edge(last, 'scheduler', 'billing')?.calls,
          edge(last, 'scheduler', 'kafka/orders')?.calls,
        ];
      },
      { timeout: 45_000, interval: 500 },
    )
    .toEqual([REQUESTS, REQUESTS, REQUESTS, REQUESTS, REQUESTS, 1, 1]);
  return last!;
}

beforeAll(async () => {
  bare = createServer((_req, res) => res.end('plain'));
  bare.listen(0, '127.0.0.1');
  await once(bare, 'listening');
  barePort = (bare.address() as AddressInfo).port;

  const inventory = await startApp('inventory', {});
  const checkout = await startApp('checkout', {
    SG_CALLS: JSON.stringify([`http://127.0.0.1:${inventory}/stock`, `http://127.0.0.1:${barePort}/rates`]),
    SG_FAIL_EVERY: String(FAIL_EVERY),
    SG_DB: 'postgresql/shop',
  });
  const frontend = await startApp('frontend', { SG_CALLS: JSON.stringify([`http://127.0.0.1:${checkout}/buy`]) });
  // The test process has no instrumentation: frontend's server spans are roots (callers: `user`).
  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(`http://127.0.0.1:${frontend}/`);
    expect(res.status).toBe(200);
  }
  // SIGTERM: each app flushes its batch exporter before it exits.
  await Promise.all(
    apps.map(async (a) => {
      const exited = once(a, 'exit');
      a.kill('SIGTERM');
      await exited;
    }),
  );

  // A call whose server half starts a minute after its client half, each exported in a request of
  // its own (the server's first), by two SDKs; a producer span nothing consumes; a service that
  // calls nobody.
  const otlp = {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  };
  const scheduler = createTestTracer('http-proto', { ...otlp, serviceName: 'scheduler' });
  const billing = createTestTracer('http-proto', { ...otlp, serviceName: 'billing' });
  const cron = createTestTracer('http-proto', { ...otlp, serviceName: 'cron' });
  const start = t0 - 5_000;
  const client = scheduler.tracer.startSpan('POST /invoices', {
    kind: SpanKind.CLIENT,
    startTime: start,
    attributes: { 'http.request.method': 'POST', 'server.address': 'billing.internal' },
  });
  const srv = billing.tracer.startSpan(
    'POST /invoices',
    {
      kind: SpanKind.SERVER,
      startTime: start + 60_000,
      attributes: { 'http.request.method': 'POST', 'http.route': '/invoices' },
    },
    trace.setSpan(context.active(), client),
  );
  srv.setStatus({ code: SpanStatusCode.ERROR });
  srv.end(start + 64_000);
  await billing.shutdown();
  client.end(start + 65_000);
  scheduler.tracer
    .startSpan('orders publish', {
      kind: SpanKind.PRODUCER,
      startTime: start,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
    })
    .end(start + 3);
  await scheduler.shutdown();
  cron.tracer.startSpan('nightly cleanup', { startTime: start }).end(start + 1000);
  await cron.shutdown();
  for (const t of [scheduler, billing, cron])
    expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
}, 90_000);

afterAll(() => {
  for (const a of apps) if (a.exitCode === null) a.kill('SIGKILL');
  bare?.close();
});

describe('service graph: bad input', () => {
  const ask = (path: string, params: Record<string, string>) => get(server.lantern, server.cookie, path, params);
  it('answers 404 for an unknown project', async () => {
    const res = await ask('999/service-graph', range());
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'project_not_found' });
  });
  it('answers 400 with a message for an inverted range, a range over the retention, a bad time', async () => {
    const now = Date.now();
    for (const params of [
      { time_gte: new Date(now).toISOString(), time_lt: new Date(now - 60_000).toISOString() },
      { time_gte: new Date(now - 31 * 86_400_000).toISOString(), time_lt: new Date(now).toISOString() },
      { time_gte: 'yesterday', time_lt: new Date(now).toISOString() },
    ]) {
      const res = await ask('1/service-graph', params);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_time', message: expect.stringMatching(/\w/) });
    }
    const missing = await ask('1/service-graph', { time_gte: new Date(now).toISOString() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('time_lt') });
  });
  it('answers 400 for a series of neither a node nor an edge', async () => {
    const res = await ask('1/service-graph/series', { ...range(), client: 'checkout' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/node/) });
  });
});

describe('service graph', () => {
  let g: ServiceGraphResponse;
  // The tests below read this answer (tests of a file run in order).
  it('shows every call within seconds of its export', async () => {
    g = await settledGraph();
  }, 60_000);

  it('puts every call on its edge, with the errors of the failing service', () => {
    const failures = Math.floor(REQUESTS / FAIL_EVERY);
    expect(edge(g, 'user', 'frontend')).toMatchObject({ connectionType: 'http', calls: REQUESTS, errors: 0 });
    expect(edge(g, 'frontend', 'checkout')).toMatchObject({
      connectionType: 'http',
      calls: REQUESTS,
      errors: failures,
    });
    expect(edge(g, 'checkout', 'inventory')).toMatchObject({ connectionType: 'http', calls: REQUESTS, errors: 0 });
    expect(node(g, 'checkout')).toMatchObject({ type: 'service', virtual: false, calls: REQUESTS, errors: failures });
    expect(node(g, 'frontend')).toMatchObject({ type: 'service', virtual: false, calls: REQUESTS, errors: 0 });
    expect(node(g, 'inventory')).toMatchObject({ type: 'service', virtual: false, calls: REQUESTS, errors: 0 });
    // Nothing else calls them.
    expect(g.edges.filter((e) => e.server === 'frontend' || e.server === 'checkout')).toHaveLength(2);
  });

  it('names and types the virtual nodes: the uninstrumented server, the database, the queue, the user', () => {
    expect(edge(g, 'checkout', `127.0.0.1:${barePort}`)).toMatchObject({ connectionType: 'http', calls: REQUESTS });
    expect(node(g, `127.0.0.1:${barePort}`)).toMatchObject({ type: 'external', virtual: true, calls: REQUESTS });
    expect(edge(g, 'checkout', 'postgresql/shop')).toMatchObject({ connectionType: 'database', calls: REQUESTS });
    expect(node(g, 'postgresql/shop')).toMatchObject({ type: 'database', virtual: true, calls: REQUESTS, errors: 0 });
    expect(edge(g, 'scheduler', 'kafka/orders')).toMatchObject({ connectionType: 'messaging', calls: 1 });
    expect(node(g, 'kafka/orders')).toMatchObject({ type: 'messaging', virtual: true, calls: 1 });
    expect(node(g, 'user')).toMatchObject({ virtual: true });
    // A service that calls nobody and serves nothing is drawn too.
    expect(node(g, 'cron')).toMatchObject({ type: 'service', virtual: false, calls: 0, p50: null });
    expect(
      g.nodes
        .filter((n) => n.virtual)
        .map((n) => n.name)
        .sort(),
    ).toEqual([`127.0.0.1:${barePort}`, 'kafka/orders', 'postgresql/shop', 'user'].sort());
  });

  it('pairs halves exported in two requests a minute apart, with the client measured duration', () => {
    // Paired (not an edge to a virtual `billing.internal`), failed by the server half, 65 s as the client saw it.
    expect(edge(g, 'scheduler', 'billing')).toEqual({
      client: 'scheduler',
      server: 'billing',
      connectionType: 'http',
      calls: 1,
      errors: 1,
      p50: 65e9,
      p99: 65e9,
    });
    expect(g.edges.some((e) => e.server === 'billing.internal')).toBe(false);
  });

  it('has percentiles on nodes and edges (client-measured calls take longer than the server spans)', () => {
    for (const e of [edge(g, 'frontend', 'checkout')!, edge(g, 'checkout', 'postgresql/shop')!]) {
      expect(e.p50).toBeGreaterThan(0);
      expect(e.p99).toBeGreaterThanOrEqual(e.p50!);
    }
    const checkout = node(g, 'checkout')!;
    expect(checkout.p50).toBeGreaterThan(0);
    expect(edge(g, 'frontend', 'checkout')!.p99).toBeGreaterThanOrEqual(checkout.p50!);
    expect(edge(g, 'checkout', 'postgresql/shop')!.p50).toBeGreaterThanOrEqual(1e6); // the 2 ms timer
  });

  it('answers a node and an edge over time, summing to the totals', async () => {
    const nodeSeries = ServiceGraphSeriesResponse.parse(
      (await get(server.lantern, server.cookie, '1/service-graph/series', { ...range(), node: 'checkout' })).body,
    );
    expect(nodeSeries.calls.reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    expect(nodeSeries.errors.reduce((a, b) => a + b, 0)).toBe(Math.floor(REQUESTS / FAIL_EVERY));
    expect(nodeSeries.time).toHaveLength(nodeSeries.calls.length);
    const edgeSeries = ServiceGraphSeriesResponse.parse(
      (
        await get(server.lantern, server.cookie, '1/service-graph/series', {
          ...range(),
          client: 'checkout',
          server: 'postgresql/shop',
        })
      ).body,
    );
    expect(edgeSeries.calls.reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    const virtualSeries = ServiceGraphSeriesResponse.parse(
      (await get(server.lantern, server.cookie, '1/service-graph/series', { ...range(), node: 'postgresql/shop' }))
        .body,
    );
    expect(virtualSeries.calls.reduce((a, b) => a + b, 0)).toBe(REQUESTS);
  });

  it('counts nothing twice when windows are written again: more runs, then a restart', async () => {
    // `billing`'s server span starts in a minute still to come: its node's call lands when that
    // minute is written, so its node is left out of the comparisons.
    const stable = (x: ServiceGraphResponse) => ({ ...x, nodes: x.nodes.filter((n) => n.name !== 'billing') });
    const runs = () => (server.lantern.output().match(/service graph: windows written/g) ?? []).length;
    // Every run rewrites the windows within their wait; the numbers stay put across runs.
    const before = runs();
    await expect.poll(runs, { timeout: 20_000 }).toBeGreaterThan(before + 2);
    expect(stable(await graph())).toEqual(stable(g));

    // A stopped node gives the lease up; the next one carries on from the recorded runs and writes
    // the windows still within their wait again. (A crash between a run's rows and its record:
    // serviceGraphJob.int.test.ts.)
    const { dataDir, httpPort, grpcPort } = server.lantern;
    await server.lantern.stop();
    const again = await startLantern({ dataDir, httpPort, grpcPort, env: ENV });
    try {
      await expect.poll(() => again.output(), { timeout: 20_000 }).toMatch(/service graph: windows written/);
      const cookie = await signIn(again.baseUrl);
      expect(stable(await graph(again, cookie))).toEqual(stable(g));
    } finally {
      await again.stop();
    }
  }, 90_000);
});
