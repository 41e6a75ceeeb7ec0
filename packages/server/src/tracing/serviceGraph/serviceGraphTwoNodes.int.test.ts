import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceGraphResponse } from '@lantern/shared';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import {
  PROJECT1_TOKEN,
  removeDataDir,
  signIn,
  startLantern,
  tempDataDir,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { pgDatabaseFor, testPgUrl } from '@lantern/testkit/postgres';

/**
 * The service graph on two Lantern nodes over one PostgreSQL and one remote ClickHouse (the test
 * stand-in), as a scaled-out deployment runs (issue 36): each call's client half is exported to
 * one node and its server half to the other; one node at a time (the lease holder) writes the
 * graph, and both answer the same one, every call paired.
 */
let ch: ClickHouseStandIn;
let dir: string;
const nodes: RunningLantern[] = [];
const CALLS = 5;

beforeAll(async () => {
  dir = tempDataDir();
  ch = await startClickHouseStandIn(join(dir, 'ch'));
  const env = {
    LANTERN_DB_URL: await pgDatabaseFor(testPgUrl(), dir),
    LANTERN_CH_URL: ch.url,
    LANTERN_SECRET_KEY: randomBytes(32).toString('hex'),
    LANTERN_INGEST_FLUSH_INTERVAL_MS: '20',
    LANTERN_SERVICE_GRAPH_WAIT_SECONDS: '5',
    LANTERN_SERVICE_GRAPH_INTERVAL_SECONDS: '1',
    LANTERN_LOG_LEVEL: 'info',
  };
  // One after the other: both run the migrations, the second finds them applied.
  nodes.push(await startLantern({ env }));
  nodes.push(await startLantern({ env }));
}, 180_000);

afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    removeDataDir(n.dataDir);
  }
  await ch?.stop();
  if (dir) removeDataDir(dir);
});

describe('service graph on two nodes', () => {
  it('pairs halves sent to different nodes; one node writes, both answer the same graph', async () => {
    const [a, b] = nodes;
    const otlp = (n: RunningLantern) => ({
      httpUrl: n.baseUrl,
      grpcUrl: `http://127.0.0.1:${n.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1:${n.httpPort}/1`,
    });
    const web = createTestTracer('http-proto', { ...otlp(a), serviceName: 'web' });
    const api = createTestTracer('http-json', { ...otlp(b), serviceName: 'api' });
    const start = Date.now() - 2_000;
    for (let i = 0; i < CALLS; i++) {
      const client = web.tracer.startSpan('GET /items', {
        kind: SpanKind.CLIENT,
        startTime: start + i,
        attributes: { 'http.request.method': 'GET', 'server.address': 'api' },
      });
      api.tracer
        .startSpan(
          'GET /items',
          { kind: SpanKind.SERVER, startTime: start + i + 1, attributes: { 'http.route': '/items' } },
          trace.setSpan(context.active(), client),
        )
        .end(start + i + 5);
      client.end(start + i + 6);
    }
    await Promise.all([web.shutdown(), api.shutdown()]);
    for (const t of [web, api]) expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);

    const range = new URLSearchParams({
      time_gte: new Date(start - 3600_000).toISOString(),
      time_lt: new Date(start + 600_000).toISOString(),
    });
    const graphOf = async (n: RunningLantern, cookie: string) => {
      const res = await fetch(`${n.baseUrl}/api/v1/tracing/1/service-graph?${range}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      return ServiceGraphResponse.parse(await res.json());
    };
    const cookies = [await signIn(a.baseUrl), await signIn(b.baseUrl)];
    await expect
      .poll(async () => (await graphOf(a, cookies[0])).edges.find((e) => e.client === 'web')?.server, {
        timeout: 30_000,
      })
      .toBe('api');
    const [ga, gb] = [await graphOf(a, cookies[0]), await graphOf(b, cookies[1])];
    expect(ga).toEqual(gb);
    expect(ga.edges.filter((e) => e.client === 'web')).toEqual([
      expect.objectContaining({ server: 'api', connectionType: 'http', calls: CALLS, errors: 0 }),
    ]);
    expect(ga.nodes.find((n) => n.name === 'api')).toMatchObject({ calls: CALLS, virtual: false });
    // The lease: only one node ran the job.
    const writers = nodes.filter((n) => n.output().includes('service graph: windows written'));
    expect(writers).toHaveLength(1);
  }, 60_000);
});
