import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@lantern/testkit/harness';
import { screenshot } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { MetricsExplorePage } from '@lantern/testkit/pages/MetricsExplorePage';
import { TopBar } from '@lantern/testkit/pages/TopBar';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * A newcomer's first hour, as the README and the help pages tell it: read the DSNs Lantern prints
 * at start, open Getting started of an empty project, copy its snippets and run them VERBATIM
 * (the SDK variables of both tabs and the Node.js start lines with a small service, CommonJS and
 * ES modules; the Zipkin example, then its trace id in the search box; the Metrics help's variables; its Prometheus remote_write block in a real Prometheus, checked
 * by promtool first), then see the Overview, spans, logs and Metrics explore fill up.
 * Project 2 is the one the newcomer sends to (it starts empty).
 */
const ROOT = new URL('..', import.meta.url).pathname;
const t = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

/** A small service: serves a few requests to itself (one fails), logs each, counts orders. */
const APP = `
const http = require('node:http');
const { metrics } = require('@opentelemetry/api');
const { logs, SeverityNumber } = require('@opentelemetry/api-logs');
const orders = metrics.getMeter('shop').createCounter('shop.orders', { description: 'Orders placed' });
const logger = logs.getLogger('shop');
const server = http.createServer((req, res) => {
  orders.add(1, { path: req.url });
  const failed = req.url.endsWith('/fail');
  logger.emit({
    severityNumber: failed ? SeverityNumber.ERROR : SeverityNumber.INFO,
    severityText: failed ? 'ERROR' : 'INFO',
    body: failed ? 'checkout failed: card declined' : 'order placed',
  });
  res.statusCode = failed ? 500 : 200;
  res.end('ok');
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  for (let i = 0; i < REQUESTS; i++) {
    const path = i === 0 ? '/fail' : '/checkout';
    await new Promise((r) => http.get('http://127.0.0.1:' + port + '/' + FLAVOR + path, (res) => res.resume().on('end', r)));
  }
  server.close();
  // The SDK flushes what it holds at SIGTERM, then exits.
  setTimeout(() => process.kill(process.pid, 'SIGTERM'), 1000);
});
`;
const REQUESTS = 5;

let appDir: string;
let page: Page;

function writeApps(): void {
  appDir = mkdtempSync(join(tmpdir(), 'lantern-newcomer-'));
  // What `npm install @opentelemetry/api @opentelemetry/auto-instrumentations-node` leaves behind.
  symlinkSync(join(ROOT, 'node_modules'), join(appDir, 'node_modules'));
  writeFileSync(join(appDir, 'app.js'), APP.replace('REQUESTS', String(REQUESTS)).replace('FLAVOR', "'cjs'"));
  const esm = APP.replace('REQUESTS', String(REQUESTS))
    .replace('FLAVOR', "'esm'")
    .replace("const http = require('node:http');", "import http from 'node:http';")
    .replace("const { metrics } = require('@opentelemetry/api');", "import { metrics } from '@opentelemetry/api';")
    .replace(
      "const { logs, SeverityNumber } = require('@opentelemetry/api-logs');",
      "import { logs, SeverityNumber } from '@opentelemetry/api-logs';",
    );
  writeFileSync(join(appDir, 'app.mjs'), esm);
}

/** Runs shell lines copied from the page in the app's directory, with no OTEL_* of the test's own. */
function runShell(lines: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const r = spawnSync('bash', ['-e', '-c', lines.join('\n')], { cwd: appDir, env, encoding: 'utf8', timeout: 60_000 });
  const out = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`exit ${r.status ?? r.signal}:\n${lines.join('\n')}\n${out}`);
  return out;
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${t.lantern.baseUrl}${path}`, { headers: { cookie: t.cookie } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

function lastHour(): string {
  const now = Date.now();
  return `time_gte=${new Date(now - 3600_000).toISOString()}&time_lt=${new Date(now + 120_000).toISOString()}`;
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 60_000, log = () => ''): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function systemCount(system: string): Promise<number> {
  const r = await api<{ systems: { system: string; count: number }[] }>(`/api/v1/tracing/2/systems?${lastHour()}`);
  return r.systems.find((s) => s.system === system)?.count ?? 0;
}

async function metricNames(): Promise<string[]> {
  const r = await api<{ metrics: { name: string }[] }>(`/api/v1/metrics/2?${lastHour()}`);
  return r.metrics.map((m) => m.name);
}

/** The lines of a snippet after a `# heading` line, up to the next one: one command, as shown. */
function section(lines: string[], heading: string): string[] {
  const from = lines.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(from + 1);
  const end = rest.findIndex((l) => l.startsWith('#'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The text of a snippet on the page, as its copy button would copy it. */
async function snippet(testId: string): Promise<string> {
  return (await page.getByTestId(testId).innerText()).trim();
}

describe("a newcomer's first hour", () => {
  const ui = useSignedInPage(t, 'onboarding');
  beforeAll(() => writeApps());
  afterAll(() => {
    if (appDir) rmSync(appDir, { recursive: true, force: true });
  });

  it('prints where to sign in and the DSNs that Project settings shows', async () => {
    const project = await api<{ http: { endpoint: string; dsn: string }; grpc: { endpoint: string; dsn: string } }>(
      '/api/v1/projects/2',
    );
    const out = t.lantern.output();
    expect(out).toContain(`Sign in at ${t.lantern.baseUrl} as admin@lantern.local with password lantern`);
    expect(out).toContain(`  OTLP/HTTP  ${project.http.endpoint}  lantern-dsn=${project.http.dsn}\n`);
    expect(out).toContain(`  OTLP/gRPC  ${project.grpc.endpoint}  lantern-dsn=${project.grpc.dsn}\n`);
    expect(out).toContain(`Getting started (SDK and Collector settings, demo data): ${t.lantern.baseUrl}/help/1`);
  });

  it('Getting started: the SDK variables and the Node.js lines, run as shown, fill Overview, spans and logs', async () => {
    page = ui.page();
    ui.explainFailures();
    await page.goto(`${t.lantern.baseUrl}/overview/2`);
    await page.getByTestId('tracing-help').waitFor();
    // The tab shown first: OTLP/gRPC.
    const grpcEnv = await snippet('help-sdk-env');
    expect(grpcEnv).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc');
    await page.getByTestId('help-tab-http').click();
    const env = await snippet('help-sdk-env');
    expect(env).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf');
    const node = (await snippet('help-node')).split('\n');
    await screenshot(page, 'onboarding-01-getting-started');
    expect(node[0]).toBe('npm install @opentelemetry/api @opentelemetry/auto-instrumentations-node');
    // The lines between `npm install` and the first command (the resource detectors), then one command.
    const prelude = node.slice(1, node.indexOf('# CommonJS')).filter((l) => !l.startsWith('#'));
    const cjs = [...prelude, ...section(node, '# CommonJS')];
    const esm = [...prelude, ...section(node, '# ES modules')];
    expect(section(node, '# CommonJS').join('\n')).toMatch(/^node .* app\.js$/);
    expect(section(node, '# ES modules').join('\n')).toMatch(/^node [^]* app\.mjs$/);

    // CommonJS over OTLP/gRPC, then OTLP/HTTP: every request is a server and a client span of
    // http:my-service, every log a log row.
    runShell([...grpcEnv.split('\n'), ...cjs]);
    await eventually('traced over gRPC', async () => (await systemCount('http:my-service')) >= 2 * REQUESTS);
    runShell([...env.split('\n'), ...cjs]);
    await eventually('traced over HTTP', async () => (await systemCount('http:my-service')) >= 4 * REQUESTS);
    // ES modules: the hook line traces the imported node:http too (without it only logs arrive).
    runShell([...env.split('\n'), ...esm]);
    await eventually(
      'the ES module service traced',
      async () => (await systemCount('http:my-service')) >= 6 * REQUESTS,
    );
    await eventually('logs of all three', async () => (await systemCount('log:error')) >= 3);

    // The Overview is no longer the help card: the service's system is listed.
    await page.goto(`${t.lantern.baseUrl}/overview/2`);
    await page.getByTestId('overview').waitFor();
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('group-name').allInnerTexts()).resolves.toContain('.system="http:my-service"');
    expect(await page.getByTestId('tracing-help').count()).toBe(0);
    await screenshot(page, 'onboarding-02-overview');

    const explore = new ExplorePage(page);
    await page.goto(`${t.lantern.baseUrl}/spans/2/items?system=http:my-service`);
    await explore.spanRows.first().waitFor();
    expect(await explore.spanRows.count()).toBeGreaterThanOrEqual(10);
    await screenshot(page, 'onboarding-03-spans');

    await explore.goto(t.lantern.baseUrl, 2, '?system=log:all');
    await explore.waitForGroups();
    const logGroups = await explore.groupNameTexts();
    expect(logGroups).toEqual(
      expect.arrayContaining([expect.stringContaining('order placed'), expect.stringContaining('checkout failed')]),
    );
    // Only the service's own logs: no failed cloud metadata lookups of the SDK's resource detectors.
    expect(logGroups.filter((g) => g.includes('metadata.google.internal'))).toEqual([]);
    await screenshot(page, 'onboarding-04-logs');
    expect(ui.errors()).toEqual([]);
  });

  it('Getting started: the Zipkin example, posted as shown, opens from the search box by its trace id', async () => {
    page = ui.page();
    ui.explainFailures();
    await page.goto(`${t.lantern.baseUrl}/help/2`);
    const curl = await snippet('help-zipkin');
    const help = await page.getByTestId('tracing-help').innerText();
    const traceId = /paste its trace id (\w+)/.exec(help)?.[1] ?? '';
    // The snippets that cannot run here say what to fill in: the Collector's pipelines, Vector's inputs.
    expect(help).toContain('Add its exporter to yours and put it in each pipeline');
    expect(help).toContain('put the names of your log sources in inputs');
    expect(await snippet('help-vector')).toContain('inputs = ["my_logs"]');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(curl).toContain(traceId);
    const url = await page.getByTestId('help-zipkin-url').innerText();
    runShell([`${curl} --fail-with-body`]);

    await new TopBar(page).searchFor(traceId);
    const trace = new TracePage(page);
    await trace.waitForTrace();
    await expect(trace.spanNames.allInnerTexts()).resolves.toContain('get /cart');
    await screenshot(page, 'onboarding-05-zipkin-trace');

    // A reporter that cannot send headers posts to the URL with the DSN in it.
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(res.status).toBe(202);
    expect(ui.errors()).toEqual([]);
  });

  it('Metrics help: the in-app variables with the Node.js line send the service metrics to Metrics explore', async () => {
    page = ui.page();
    ui.explainFailures();
    await page.goto(`${t.lantern.baseUrl}/metrics/2/help`);
    const env = await snippet('help-metrics-env');
    await screenshot(page, 'onboarding-06-metrics-help');
    // "Node.js: start the SDK as Getting started shows."
    await page.getByTestId('metrics-help-node-link').click();
    await page.waitForURL(/\/help\/2$/);
    const node = (await snippet('help-node')).split('\n');
    const prelude = node.slice(1, node.indexOf('# CommonJS')).filter((l) => !l.startsWith('#'));
    runShell([...env.split('\n'), ...prelude, ...section(node, '# CommonJS')]);
    await eventually('shop.orders listed', async () => (await metricNames()).includes('shop.orders'));

    const explore = new MetricsExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 2);
    await explore.rows.filter({ hasText: 'shop.orders' }).first().waitFor();
    await screenshot(page, 'onboarding-07-metrics-explore');
    expect(ui.errors()).toEqual([]);
  });

  describe('Prometheus remote write as the Metrics help shows it', () => {
    let prom: ChildProcess | undefined;
    let promLog = '';
    let promDir: string;
    afterAll(async () => {
      if (prom && prom.exitCode === null) {
        prom.kill('SIGTERM');
        await new Promise((r) => prom!.once('exit', r));
      }
      if (promDir) rmSync(promDir, { recursive: true, force: true });
    });

    it('is a block promtool accepts, and what Prometheus scrapes shows in Metrics explore', async () => {
      page = ui.page();
      ui.explainFailures();
      await page.goto(`${t.lantern.baseUrl}/metrics/2/help`);
      const block = await snippet('help-remote-write');
      promDir = mkdtempSync(join(tmpdir(), 'lantern-newcomer-prom-'));
      const promPort = await freePort();
      const config = join(promDir, 'prometheus.yml');
      // A prometheus.yml that scrapes Prometheus itself, with the block added as the help says.
      writeFileSync(
        config,
        [
          'global: { scrape_interval: 1s }',
          'scrape_configs:',
          '  - job_name: prometheus',
          `    static_configs: [{ targets: ['127.0.0.1:${promPort}'] }]`,
          block,
          '',
        ].join('\n'),
      );
      const check = spawnSync('/usr/bin/promtool', ['check', 'config', config], { encoding: 'utf8' });
      expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);

      prom = spawn(
        '/usr/bin/prometheus',
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(promDir, 'data')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prom.stdout!.on('data', (d) => (promLog += d));
      prom.stderr!.on('data', (d) => (promLog += d));
      await eventually(
        'prometheus_build_info remote-written',
        async () => (await metricNames()).includes('prometheus_build_info'),
        90_000,
        () => promLog.slice(-3000),
      );

      const explore = new MetricsExplorePage(page);
      await explore.goto(t.lantern.baseUrl, 2);
      await page.getByTestId('metric-search').fill('prometheus_build');
      await explore.rows.filter({ hasText: 'prometheus_build_info' }).first().waitFor();
      await screenshot(page, 'onboarding-08-prometheus-in-explore');
      expect(ui.errors()).toEqual([]);
    }, 120_000);
  });
});
