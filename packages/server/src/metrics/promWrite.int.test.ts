import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compressSync } from 'snappy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsListResponse, TableResponse } from '@lantern/shared';
import { encodeWriteRequest } from '../../../../bench/metrics/remoteWrite';
import { freePort, PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Prometheus remote write end to end with the real Prometheus (Debian's 2.42, installed by
 * `npm test`): it scrapes a target served by this test every second and remote-writes into
 * Lantern with the project token as a bearer token. The target's counter stops growing after a
 * few scrapes, so the stored increase must come to exactly what the target counted after
 * Prometheus's first sample (the baseline).
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const PROMETHEUS = '/usr/bin/prometheus';

let target: Server;
let prom: ChildProcess;
let promDir: string;
let promLog = '';
let scrapes = 0;
const GROWING_SCRAPES = 6;

function exposition(): string {
  scrapes++;
  const total = 100 + 3 * Math.min(scrapes, GROWING_SCRAPES);
  return [
    '# HELP demo_requests_total Requests served.',
    '# TYPE demo_requests_total counter',
    `demo_requests_total{path="/checkout"} ${total}`,
    '# HELP demo_temperature_celsius Room temperature.',
    '# TYPE demo_temperature_celsius gauge',
    'demo_temperature_celsius{room="lab"} 21.5',
    '# HELP demo_latency_seconds Request latency.',
    '# TYPE demo_latency_seconds histogram',
    `demo_latency_seconds_bucket{le="0.1"} ${2 * Math.min(scrapes, GROWING_SCRAPES)}`,
    `demo_latency_seconds_bucket{le="+Inf"} ${3 * Math.min(scrapes, GROWING_SCRAPES)}`,
    `demo_latency_seconds_sum ${0.5 * Math.min(scrapes, GROWING_SCRAPES)}`,
    `demo_latency_seconds_count ${3 * Math.min(scrapes, GROWING_SCRAPES)}`,
    '',
  ].join('\n');
}

async function api(path: string) {
  const res = await fetch(`${server.lantern.baseUrl}${path}`, { headers: { cookie: server.cookie } });
  expect(res.status).toBe(200);
  return res.json();
}

function range(): string {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  return `time_gte=${new Date(minute - 3600_000).toISOString()}&time_lt=${new Date(minute + 120_000).toISOString()}`;
}

async function total(metric: string, query: string): Promise<number | null> {
  const t = TableResponse.parse(
    await api(`/api/v1/metrics/1/table?${range()}&metric=${metric}&alias=m&query=${encodeURIComponent(query)}`),
  );
  const v = t.items[0]?.v;
  return typeof v === 'number' ? v : null;
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}\nPrometheus said:\n${promLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  target = createServer((req, res) => {
    if (req.url !== '/metrics') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(exposition());
  });
  const targetPort = await freePort();
  await new Promise<void>((r) => target.listen(targetPort, '127.0.0.1', r));
  promDir = mkdtempSync(join(tmpdir(), 'lantern-prom-'));
  writeFileSync(
    join(promDir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, scrape_timeout: 1s }',
      'scrape_configs:',
      `  - job_name: demo`,
      `    static_configs: [{ targets: ['127.0.0.1:${targetPort}'] }]`,
      'remote_write:',
      `  - url: ${server.lantern.baseUrl}/api/v1/prometheus/write`,
      `    authorization: { credentials: ${PROJECT1_TOKEN} }`,
      '    queue_config: { batch_send_deadline: 500ms, min_backoff: 100ms, max_backoff: 1s }',
      '    metadata_config: { send_interval: 1s }',
      '',
    ].join('\n'),
  );
  prom = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(promDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(promDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${await freePort()}`,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prom.stdout!.on('data', (d) => (promLog += d));
  prom.stderr!.on('data', (d) => (promLog += d));
}, 120_000);

afterAll(async () => {
  if (prom && prom.exitCode === null) {
    prom.kill('SIGTERM');
    await new Promise((r) => prom.once('exit', r));
  }
  target?.close();
  if (promDir) rmSync(promDir, { recursive: true, force: true });
});

describe('Prometheus remote write', () => {
  it('stores what the real Prometheus scrapes: counter increase exact, gauge, histogram series, metadata', async () => {
    // The first sample Prometheus sent (103) is the baseline; every later increase counts.
    await eventually(
      'Lantern has the whole increase',
      async () =>
        scrapes > GROWING_SCRAPES && (await total('demo_requests_total', 'sum($m) as v')) === 3 * (GROWING_SCRAPES - 1),
      // Sums read finished minutes: the last increase counts once its minute is over.
      150_000,
    );
    // And no more: the counter stopped growing, later samples add nothing.
    await eventually('a few more scrapes', async () => scrapes > GROWING_SCRAPES + 4);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await total('demo_requests_total', 'sum($m) as v')).toBe(3 * (GROWING_SCRAPES - 1));

    // Prometheus sends metadata on its own schedule (every second here), apart from the samples:
    // the description comes with the first samples request after it.
    const catalogue = async () =>
      Object.fromEntries(
        MetricsListResponse.parse(await api(`/api/v1/metrics/1?${range()}`)).metrics.map((m) => [m.name, m]),
      );
    await eventually(
      'the description from the metadata',
      async () => (await catalogue()).demo_requests_total?.description === 'Requests served.',
    );
    const byName = await catalogue();
    expect(byName.demo_requests_total).toMatchObject({ instrument: 'counter', description: 'Requests served.' });
    expect(byName.demo_temperature_celsius).toMatchObject({ instrument: 'gauge' });
    for (const n of ['demo_latency_seconds_bucket', 'demo_latency_seconds_sum', 'demo_latency_seconds_count'])
      expect(byName[n]?.instrument, n).toBe('counter');
    expect(await total('demo_temperature_celsius', 'avg($m) as v')).toBe(21.5);
    // Labels are attributes: the per-bucket increase, and the job / instance Prometheus adds.
    const perLe = TableResponse.parse(
      await api(
        `/api/v1/metrics/1/table?${range()}&metric=demo_latency_seconds_bucket&alias=m&query=${encodeURIComponent('sum($m) as v | group by le | where job = demo')}`,
      ),
    );
    expect(Object.fromEntries(perLe.items.map((r) => [r.le, r.v]))).toEqual({
      '0.1': 2 * (GROWING_SCRAPES - 1),
      '+Inf': 3 * (GROWING_SCRAPES - 1),
    });
  }, 200_000);

  it('refuses what is not a remote write request with a clear 4xx, and asks for the DSN', async () => {
    const url = `${server.lantern.baseUrl}/api/v1/prometheus/write`;
    const auth = { authorization: `Bearer ${PROJECT1_TOKEN}` };
    const body = compressSync(
      Buffer.from(
        encodeWriteRequest([{ labels: [['__name__', 'x']], samples: [{ value: 1, timestampMs: Date.now() }] }]),
      ),
    );
    const noDsn = await fetch(url, { method: 'POST', headers: { 'content-encoding': 'snappy' }, body });
    expect(noDsn.status).toBe(401);
    const plain = await fetch(url, { method: 'POST', headers: { ...auth }, body });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ code: 'unsupported_encoding' });
    const junk = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-encoding': 'snappy' },
      body: Buffer.from('garbage'),
    });
    expect(junk.status).toBe(400);
    expect(await junk.json()).toMatchObject({ code: 'invalid_remote_write', message: expect.stringMatching(/snappy/) });
    // Basic auth with the token as password, as Prometheus's basic_auth sends it.
    const basic = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`lantern:${PROJECT1_TOKEN}`).toString('base64')}`,
        'content-encoding': 'snappy',
      },
      body,
    });
    expect(basic.status).toBe(204);
  });
});
