import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import postgres from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceResponse, WebhookMessage } from '@lantern/shared';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import {
  FAST_ALERTING_ENV,
  PROJECT1_TOKEN,
  removeDataDir,
  signIn,
  startLantern,
  tempDataDir,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { pgDatabaseFor, startTestPostgres, type TestPostgres } from '@lantern/testkit/postgres';
import { startHttpReceiver, type HttpReceiver } from '@lantern/testkit/receivers';
import { openTail } from '@lantern/testkit/tail';

/**
 * Scale-out: two Lantern processes over one PostgreSQL (metadata) and one remote ClickHouse store
 * (the test stand-in, packages/testkit/src/clickhouse), as N stateless nodes behind a load balancer would run.
 * PostgreSQL is a cluster of this file's own, so that it can be stopped and started again.
 */
let pg: TestPostgres;
let ch: ClickHouseStandIn;
let chDir: string;
let chPort: number;
const nodes: RunningLantern[] = [];
let a: RunningLantern;
let b: RunningLantern;
let cookieA: string;
let dbUrl: string;
let receiver: HttpReceiver;

const traceId = () => randomBytes(16).toString('hex');
const dsnOf = (n: RunningLantern) => `http://${PROJECT1_TOKEN}@127.0.0.1:${n.httpPort}/1`;

/** One OTLP/JSON request of `n` spans in one trace; answers the HTTP status. */
async function sendSpans(
  node: RunningLantern,
  id: string,
  n: number,
  service = 'scale-out',
  failed = '',
): Promise<number> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: n }, (_, i) => ({
    traceId: id,
    spanId: (i + 1).toString(16).padStart(16, '0'),
    ...(i ? { parentSpanId: '0000000000000001' } : {}),
    name: i ? `child ${i}` : 'GET /checkout',
    kind: i ? 3 : 2,
    ...(failed && i === 0 ? { name: failed, status: { code: 2, message: 'card declined' } } : {}),
    startTimeUnixNano: String(now + BigInt(i) * 1000n),
    endTimeUnixNano: String(now + BigInt(i) * 1000n + 5_000_000n),
  }));
  const res = await fetch(`${node.baseUrl}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lantern-dsn': dsnOf(node) },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
          scopeSpans: [{ spans }],
        },
      ],
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function spanCount(node: RunningLantern, cookie: string, id: string): Promise<number> {
  const res = await fetch(`${node.baseUrl}/api/v1/tracing/1/traces/${id}`, { headers: { cookie } });
  if (res.status === 404) return 0;
  expect(res.status).toBe(200);
  return TraceResponse.parse(await res.json()).numSpan;
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  pg = await startTestPostgres();
  chDir = tempDataDir();
  ch = await startClickHouseStandIn(join(chDir, 'data'));
  chPort = Number(new URL(ch.url).port);
  receiver = await startHttpReceiver();
  // Notifications go to a receiver in this test, on loopback.
  writeFileSync(join(chDir, 'lantern.yml'), 'notifications:\n  allow_networks: [loopback]\n');
  dbUrl = await pgDatabaseFor(pg.url, chDir);
  const env = {
    LANTERN_CONFIG: join(chDir, 'lantern.yml'),
    LANTERN_DB_URL: dbUrl,
    LANTERN_CH_URL: ch.url,
    LANTERN_SECRET_KEY: randomBytes(32).toString('hex'),
    LANTERN_INGEST_FLUSH_INTERVAL_MS: '20',
    LANTERN_TAIL_POLL_MS: '200',
    LANTERN_TAIL_SETTLE_MS: '500',
    ...FAST_ALERTING_ENV,
  };
  // One after the other: both run the migrations, the second finds them applied.
  a = await startLantern({ env });
  nodes.push(a);
  b = await startLantern({ env });
  nodes.push(b);
  cookieA = await signIn(a.baseUrl);
}, 180_000);

afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    removeDataDir(n.dataDir);
  }
  await ch?.stop();
  await receiver?.close();
  if (chDir) removeDataDir(chDir);
  pg?.stop();
});

describe('two nodes over one PostgreSQL and one ClickHouse', () => {
  it('serves spans sent to either node from both nodes', async () => {
    const viaA = traceId();
    const viaB = traceId();
    expect(await sendSpans(a, viaA, 3)).toBe(200);
    expect(await sendSpans(b, viaB, 4)).toBe(200);
    const cookieB = await signIn(b.baseUrl);
    for (const [node, cookie] of [
      [a, cookieA],
      [b, cookieB],
    ] as const) {
      expect(await spanCount(node, cookie, viaA)).toBe(3);
      expect(await spanCount(node, cookie, viaB)).toBe(4);
    }
  });

  it('takes a session made on one node on the other, and shares what users save', async () => {
    const me = await fetch(`${b.baseUrl}/api/v1/users/current`, { headers: { cookie: cookieA } });
    expect(me.status).toBe(200);
    const created = await fetch(`${a.baseUrl}/api/v1/metrics/1/dashboards`, {
      method: 'POST',
      headers: { cookie: cookieA, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made on node A' }),
    });
    expect(created.status).toBe(200);
    const list = (await (
      await fetch(`${b.baseUrl}/api/v1/metrics/1/dashboards`, { headers: { cookie: cookieA } })
    ).json()) as { dashboards: { name: string }[] };
    expect(list.dashboards.map((d) => d.name)).toContain('Made on node A');
  });

  it('tails spans stored through either node, and resumes a tail of one node on the other', async () => {
    const query = 'where service.name = "tail-behind-lb"';
    const onA = await openTail(a.baseUrl, cookieA, { query });
    expect(onA.status).toBe(200);
    const first = traceId();
    expect(await sendSpans(b, first, 2, 'tail-behind-lb')).toBe(200);
    await onA.until(() => onA.rows.length >= 2, 'the spans stored through node B');
    await onA.until(() => onA.lastId !== onA.rows[1].id, 'the cursor past them');
    onA.close();
    const second = traceId();
    expect(await sendSpans(a, second, 3, 'tail-behind-lb')).toBe(200);
    // The load balancer sends the reconnect to the other node, with the cursor node A gave.
    const onB = await openTail(b.baseUrl, await signIn(b.baseUrl), { query, lastEventId: onA.lastId });
    expect(onB.status).toBe(200);
    await onB.until(() => onB.rows.length >= 3, 'the spans stored after the cursor');
    expect(onA.rows.map((r) => r.span.traceId)).toEqual([first, first]);
    expect(onB.rows.map((r) => r.span.traceId)).toEqual([second, second, second]);
    expect(new Set(onB.rows.map((r) => r.span.id)).size).toBe(3);
    onB.close();
  });

  it('answers 503 while the telemetry store is down, acknowledges nothing it did not store, and recovers', async () => {
    const before = traceId();
    expect(await sendSpans(a, before, 2)).toBe(200);
    await ch.stop();
    const during = traceId();
    const status = await sendSpans(a, during, 5);
    expect(status).toBe(503);
    // Over gRPC the same refusal is UNAVAILABLE, which OTLP clients retry.
    const grpc = createTestTracer('grpc', {
      httpUrl: a.baseUrl,
      grpcUrl: `http://127.0.0.1:${a.grpcPort}`,
      dsn: dsnOf(a),
      timeoutMillis: 3_000,
    });
    grpc.tracer.startSpan('refused over gRPC').end();
    // The SDK's flush rejects with the failed export's error.
    await expect(grpc.shutdown()).rejects.toThrow(/UNAVAILABLE/);
    expect(grpc.results.map((r) => r.code)).toEqual([ExportResultCode.FAILED]);
    expect(String(grpc.results[0].error)).toMatch(/^Error: 14 UNAVAILABLE: rows could not be stored/);
    // The API says what is wrong rather than failing blankly.
    const q = await fetch(`${b.baseUrl}/api/v1/tracing/1/traces/${before}`, { headers: { cookie: cookieA } });
    expect(q.status).toBe(503);
    expect(await q.json()).toMatchObject({
      code: 'telemetry_unavailable',
      message: expect.stringMatching(/unavailable/),
    });

    ch = await startClickHouseStandIn(join(chDir, 'data'), chPort);
    const after = traceId();
    await eventually('ingest accepted again', async () => (await sendSpans(b, after, 2)) === 200);
    expect(await spanCount(a, cookieA, before)).toBe(2);
    expect(await spanCount(a, cookieA, after)).toBe(2);
    // What was refused with 503 was not half-stored: the client's retry sends it again.
    expect(await spanCount(a, cookieA, during)).toBe(0);
  });

  it('answers 503 on the API while PostgreSQL is down, keeps ingesting, and recovers', async () => {
    pg.halt();
    try {
      const me = await fetch(`${a.baseUrl}/api/v1/users/current`, { headers: { cookie: cookieA } });
      expect(me.status).toBe(503);
      expect(await me.json()).toMatchObject({
        code: 'metadata_unavailable',
        message: expect.stringMatching(/database/i),
      });
      expect(await sendSpans(a, traceId(), 2)).toBe(200);
    } finally {
      pg.resume();
    }
    await eventually(
      'API answers again',
      async () => (await fetch(`${a.baseUrl}/api/v1/users/current`, { headers: { cookie: cookieA } })).status === 200,
    );
  });
});

describe('the evaluator lease across nodes', () => {
  const call = async (node: RunningLantern, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${node.baseUrl}/api/v1/projects/1${path}`, {
      method,
      headers: { cookie: cookieA, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the body field by field and check it with expect()
    return res.json() as Promise<any>;
  };
  const hooks = () => receiver.on('/hook').map((r) => WebhookMessage.parse(r.body).alert.name);
  const holderPid = async (): Promise<number> => {
    const client = new postgres.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const r = await client.query<{ holder: string }>('SELECT holder FROM alerting_leases WHERE expires_at > $1', [
        new Date().toISOString(),
      ]);
      return Number(r.rows[0]?.holder.split('-')[0] ?? 0);
    } finally {
      await client.end();
    }
  };

  it(
    'has one node notify once, and the other take over within the lease time when it is killed',
    { timeout: 240_000 },
    async () => {
      const channel = await call(a, 'POST', '/notification-channels/webhook', {
        name: 'hook',
        params: { url: `${receiver.url}/hook` },
      });
      await call(b, 'POST', '/monitors/error', {
        name: 'Lease errors',
        notifyEveryoneByEmail: false,
        channelIds: [channel.channel.id],
        params: {
          notifyOnNewErrors: true,
          notifyOnRecurringErrors: false,
          matchers: [{ attr: 'service.name', op: '=', value: 'lease-test' }],
        },
      });
      expect(await sendSpans(a, traceId(), 1, 'lease-test', 'POST /pay')).toBe(200);
      // The evaluator scans every 2 s, 10 s behind, on the lease holder only (FAST_ALERTING_ENV).
      await eventually('the first notification', async () => hooks().length > 0, 60_000);
      await new Promise((r) => setTimeout(r, 5_000));
      expect(hooks()).toEqual(['POST /pay']);

      const pid = await holderPid();
      const holder = nodes.find((n) => n.process.pid === pid);
      expect(holder, `lease holder pid ${pid}`).toBeDefined();
      const survivor = holder === a ? b : a;
      await holder!.kill();
      nodes.splice(nodes.indexOf(holder!), 1);
      const killedAt = Date.now();

      expect(await sendSpans(survivor, traceId(), 1, 'lease-test', 'POST /refund')).toBe(200);
      // The lease expires 10 s after the dead node's last renewal; the survivor then scans within 2 s,
      // for spans 10 s old.
      await eventually('the survivor notifies', async () => hooks().length > 1, 120_000);
      const tookMs = Date.now() - killedAt;
      await new Promise((r) => setTimeout(r, 5_000));
      expect(hooks()).toEqual(['POST /pay', 'POST /refund']);
      expect(tookMs).toBeLessThan(10_000 + 2_000 + 10_000 + 15_000);
      expect(await holderPid()).toBe(survivor.process.pid);
    },
  );
});
