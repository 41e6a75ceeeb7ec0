import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startClickHouseStandIn, type ClickHouseStandIn } from '@lantern/testkit/clickhouse/fixture';
import {
  DEFAULT_LOGIN,
  PROJECT1_TOKEN,
  removeDataDir,
  serverBundle,
  signIn,
  FAST_ALERTING_ENV,
  startLantern,
  tempDataDir,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { pgDatabaseFor, testPgUrl } from '@lantern/testkit/postgres';

/**
 * `lantern migrate-storage` end to end: an embedded Lantern filled through OTLP and the API, the
 * command run as an operator would (its own process, Lantern stopped) into a fresh PostgreSQL
 * database and the ClickHouse test stand-in, then a Lantern node on those stores answers the same
 * as the embedded one did; a second run into the filled targets is refused.
 */
const ROOT = new URL('../../../../../', import.meta.url).pathname;
const BOB = { email: 'bob@example.com', password: 'bob-secret-1' };
const CAROL = { email: 'carol@example.com', password: 'carol-secret-1' };
const usersYaml = (extra = '') =>
  `users:\n  - { name: Admin, email: ${DEFAULT_LOGIN.email}, password: ${DEFAULT_LOGIN.password} }\n` +
  `  - { name: Bob, email: ${BOB.email}, password: ${BOB.password} }\n${extra}`;

let dir: string;
let dataDir: string;
let ch: ClickHouseStandIn;
let dbUrl: string;
let embedded: RunningLantern | undefined;
let remote: RunningLantern | undefined;
let adminCookie: string;
let bobCookie: string;
const traceIds: string[] = [];
/** What the embedded node answered, by path. */
const before = new Map<string, unknown>();

async function runCommand(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const main = await serverBundle();
  const child = spawn(process.execPath, [main, 'migrate-storage', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      LANTERN_CONFIG: join(dir, 'embedded.yml'),
      LANTERN_DATA_DIR: dataDir,
      LANTERN_DB_URL: '',
      LANTERN_CH_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

async function get(node: RunningLantern, path: string, cookie = adminCookie): Promise<unknown> {
  const res = await fetch(`${node.baseUrl}${path}`, { headers: { cookie } });
  const body = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

async function post<T = unknown>(node: RunningLantern, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${node.baseUrl}${path}`, {
    method: 'POST',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json as T;
}

async function eventually(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

// Fixed before the copy, so both nodes answer the same question.
const minute = Math.floor(Date.now() / 60_000) * 60_000;
const range = `time_gte=${new Date(minute - 2 * 3600_000).toISOString()}&time_lt=${new Date(minute + 3600_000).toISOString()}`;
const longRange = `time_gte=${new Date(minute - 3 * 86400_000).toISOString()}&time_lt=${new Date(minute + 3600_000).toISOString()}`;
const metricQuery = `metric=checkout.orders&alias=o&query=${encodeURIComponent('sum($o) | group by region')}`;
const metricRange = `${range}&${metricQuery}`;
const dayRange = `time_gte=${new Date(minute - 24 * 3600_000).toISOString()}&time_lt=${new Date(minute + 3600_000).toISOString()}`;
/** Read through the API on both nodes and compared whole. */
const PATHS = () => [
  `/api/v1/users/current`,
  ...traceIds.map((id) => `/api/v1/tracing/1/traces/${id}`),
  `/api/v1/tracing/1/systems?${range}`,
  `/api/v1/tracing/1/groups?${range}&system=all`,
  `/api/v1/tracing/1/groups?${longRange}&system=all`,
  `/api/v1/metrics/1`,
  `/api/v1/metrics/1/table?${metricRange}`,
  // The 15-minute and hourly rollups: the embedded store's kept up to its watermark (the minutes
  // after it read beside them), copied whole for the target's views.
  `/api/v1/metrics/1/timeseries?${dayRange}&${metricQuery}`,
  `/api/v1/metrics/1/timeseries?${longRange}&${metricQuery}`,
  `/api/v1/metrics/1/dashboards`,
  `/api/v1/projects/1/monitors`,
  `/api/v1/projects/1/alerts`,
];
const CHANNELS = `/api/v1/projects/1/notification-channels`;
/** A channel as configured; its delivery state moves on (the new node retries the pending notification). */
type Channels = { channels: { delivery: { pending: number }; [k: string]: unknown }[] };
const configured = (body: unknown) =>
  (body as Channels).channels.map(({ delivery, ...channel }) => ({ ...channel, pending: delivery.pending }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-migrate-'));
  dataDir = tempDataDir();
  writeFileSync(join(dir, 'embedded.yml'), usersYaml());
  writeFileSync(
    join(dir, 'remote.yml'),
    usersYaml(`  - { name: Carol, email: ${CAROL.email}, password: ${CAROL.password} }\n`),
  );
  embedded = await startLantern({
    dataDir,
    telemetry: 'embedded',
    env: {
      LANTERN_CONFIG: join(dir, 'embedded.yml'),
      LANTERN_DB_URL: '',
      LANTERN_INGEST_FLUSH_INTERVAL_MS: '20',
      // The error scan every 2 s instead of each minute: the alert comes in seconds.
      ...FAST_ALERTING_ENV,
    },
  });
  const node = embedded;
  adminCookie = await signIn(node.baseUrl);
  bobCookie = await signIn(node.baseUrl, BOB);
  const otlp = {
    httpUrl: node.baseUrl,
    grpcUrl: `http://127.0.0.1:${node.grpcPort}`,
    dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
    serviceName: 'shop',
    // The first inserts of a fresh server on a busy machine can take longer than the default 10 s.
    timeoutMillis: 25_000,
  };

  // Metadata through the API: a dashboard, a channel, an error monitor (its alert comes below).
  await post(node, '/api/v1/metrics/1/dashboards', { name: 'Moved dashboard' });
  const { channel } = await post<{ channel: { id: number } }>(
    node,
    '/api/v1/projects/1/notification-channels/webhook',
    {
      name: 'Moved hook',
      params: { url: 'https://hooks.example.com/lantern' },
    },
  );
  await post(node, '/api/v1/projects/1/monitors/error', {
    name: 'Checkout errors',
    notifyEveryoneByEmail: false,
    channelIds: [channel.id],
    params: { notifyOnNewErrors: true, notifyOnRecurringErrors: false },
  });

  // Telemetry through real OTLP exporters: traces (one failed), logs, metrics.
  const tracer = createTestTracer('http-proto', otlp);
  for (let i = 0; i < 20; i++) {
    // The error scan takes spans older than a minute, from where its last scan ended, which is at
    // most 90 s back: the failed span is 75 s old, so the next scan finds it whenever it runs.
    const at = i === 0 ? new Date(Date.now() - 75_000) : new Date();
    tracer.tracer.startActiveSpan(`GET /item/:id`, { kind: SpanKind.SERVER, startTime: at }, (root) => {
      traceIds.push(root.spanContext().traceId);
      const db = tracer.tracer.startSpan(
        'SELECT items',
        {
          kind: SpanKind.CLIENT,
          startTime: at,
          attributes: { 'db.system': 'postgresql', 'db.statement': `SELECT * FROM items WHERE id = ${i}` },
        },
        // The root's child, explicitly: the test provider registers no context manager.
        trace.setSpan(context.active(), root),
      );
      db.end(new Date(at.getTime() + 3));
      if (i === 0) {
        root.recordException(new Error('card declined'));
        root.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
      }
      root.end(new Date(at.getTime() + 5));
    });
  }
  await tracer.shutdown();
  expect(
    tracer.results.every((r) => r.code === ExportResultCode.SUCCESS),
    String(tracer.results.find((r) => r.code)?.error),
  ).toBe(true);
  const logger = createTestLogger('http-proto', otlp);
  for (let i = 0; i < 10; i++)
    logger.logger.emit({ severityText: i % 2 ? 'ERROR' : 'INFO', body: `order ${i} placed` });
  await logger.shutdown();
  expect(logger.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
  const meter = createTestMeter('http-proto', otlp);
  const orders = meter.meter.createCounter('checkout.orders');
  orders.add(5, { region: 'eu' });
  orders.add(7, { region: 'us' });
  meter.meter.createHistogram('checkout.latency', { unit: 'ms' }).record(42, { region: 'eu' });
  await meter.flush();
  await meter.shutdown();
  expect(meter.results.map((r) => r.error?.message ?? r.code)).toEqual(meter.results.map(() => 0));

  // The evaluator's next error scan turns the failed span into an alert.
  await eventually(
    'the error alert',
    async () => ((await get(node, '/api/v1/projects/1/alerts')) as { count: number }).count > 0,
    150_000,
  );
  await eventually(
    'every trace stored',
    async () => {
      const res = await fetch(`${node.baseUrl}/api/v1/tracing/1/traces/${traceIds.at(-1)}`, {
        headers: { cookie: adminCookie },
      });
      await res.arrayBuffer();
      return res.status === 200;
    },
    10_000,
  );
  for (const path of PATHS()) before.set(path, await get(node, path));
  before.set('bob', await get(node, '/api/v1/users/current', bobCookie));
  before.set(CHANNELS, await get(node, CHANNELS));
  await embedded.stop();

  ch = await startClickHouseStandIn(join(dir, 'ch'));
  dbUrl = await pgDatabaseFor(testPgUrl(), dir);
}, 300_000);

afterAll(async () => {
  await embedded?.stop();
  await remote?.stop();
  await ch?.stop();
  if (dataDir) removeDataDir(dataDir);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('lantern migrate-storage', () => {
  it('copies embedded storage into PostgreSQL and ClickHouse, and a node on them answers the same', async () => {
    const run = await runCommand(['--to-db', dbUrl, '--to-ch', ch.url]);
    onTestFailed(() => console.error(`--- migrate-storage ---\n${run.out}\n${run.err}`));
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/telemetry spans_index: \d+ of \d+ rows/);
    expect(run.out).toMatch(/metadata dashboards: \d+ rows/);
    expect(run.out).toContain('every count matches');

    // The same data_dir (its secret key): sessions signed before the move stay valid.
    remote = await startLantern({
      dataDir,
      telemetry: 'embedded',
      env: { LANTERN_CONFIG: join(dir, 'remote.yml'), LANTERN_DB_URL: dbUrl, LANTERN_CH_URL: ch.url },
    });
    onTestFailed(() => console.error(`--- remote node ---\n${remote?.output().slice(-3000)}`));
    for (const path of PATHS()) expect(await get(remote, path), path).toEqual(before.get(path));
    expect(await get(remote, '/api/v1/users/current', bobCookie)).toEqual(before.get('bob'));
    expect(configured(await get(remote, CHANNELS))).toEqual(configured(before.get(CHANNELS)));
    const dashboards = before.get('/api/v1/metrics/1/dashboards') as { dashboards: { name: string }[] };
    expect(dashboards.dashboards.map((d) => d.name)).toContain('Moved dashboard');
    expect((before.get('/api/v1/projects/1/alerts') as { count: number }).count).toBeGreaterThan(0);
    expect((before.get(`/api/v1/tracing/1/traces/${traceIds[1]}`) as { numSpan: number }).numSpan).toBe(2);

    // Carol is new in the remote config: her row takes the next id, past the copied ones
    // (the sequence was reset), and she signs in.
    await signIn(remote.baseUrl, CAROL);
    // The rollups' views are attached again.
    const client = createClient({ url: ch.url });
    try {
      const views = await (
        await client.query({
          query: `SELECT name FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView' ORDER BY name`,
          format: 'JSONEachRow',
        })
      ).json<{ name: string }>();
      expect(views.map((v) => v.name)).toEqual(
        expect.arrayContaining(['datapoint_15m_mv', 'datapoint_hours_mv', 'span_groups_1h_mv', 'span_groups_1m_mv']),
      );
    } finally {
      await client.close();
    }
  });

  it('refuses a second run into the filled targets, saying why and what to do', async () => {
    await remote?.stop();
    remote = undefined;
    const run = await runCommand(['--to-db', dbUrl, '--to-ch', ch.url]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/target ClickHouse database is not empty \(rows in [^)]*spans_index/);
    expect(run.err).toMatch(/target PostgreSQL database is not empty \(rows in [^)]*dashboards/);
    expect(run.err).toContain('--replace');
    expect(run.out).not.toMatch(/telemetry spans_index:/);
  });

  it('refuses an unreachable target and a data_dir a Lantern still runs on, saying which', async () => {
    const unreachable = await runCommand(['--to-ch', 'http://default:secret@127.0.0.1:9', '--to-db', dbUrl]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain('cannot reach the target ClickHouse at http://default:***@127.0.0.1:9');
    expect(unreachable.err).not.toContain('secret');

    embedded = await startLantern({
      dataDir,
      telemetry: 'embedded',
      env: { LANTERN_CONFIG: join(dir, 'embedded.yml'), LANTERN_DB_URL: '' },
    });
    const running = await runCommand(['--to-db', dbUrl, '--to-ch', ch.url, '--replace']);
    expect(running.code).toBe(1);
    expect(running.err).toMatch(/is a Lantern still running on this data_dir\? Stop it first/);
  });
});
