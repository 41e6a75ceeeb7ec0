import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DEFAULT_LOGIN, PROJECT1_TOKEN, removeDataDir, signIn, startLantern } from '@lantern/testkit/harness';
import { launchBrowser } from '@lantern/testkit/pages/browser';
import { bodies, HOSTS, PANELS, send, timeSteps } from './dashboardData';
import { profileLoad, traceLoad } from './pageProfile';
import type { Browser, Page, Response } from 'playwright-core';
import { SERVER_ENV } from './serverEnv';

/**
 * `bench/web/dashboard.ts`: a grid dashboard of 8 panels (5 charts, 2 tables, 1 heatmap) over 24
 * hours of 10,000 counter series (host x route, one point every 5 minutes, 2.88M datapoints) and a
 * latency histogram per host, all sent as OTLP/HTTP protobuf to the real server. Measures, in
 * headless Chromium, the time from navigation to every panel painted (chart canvases drawn, table
 * rows shown), median of N cold page loads after one warm-up, and the production bundle (gzip).
 *
 *   cd packages/web && npx vite build --outDir /tmp/web-bench --emptyOutDir && cd ../..
 *   LANTERN_WEB_DIST=/tmp/web-bench node --import tsx bench/web/dashboard.ts [--series 10000] [--runs 5]
 *
 * `--ab /tmp/web-other` compares two builds of the web app in one run over the same server and data:
 * loads alternate between the server's bundle (A) and the other build's files (B), both served to the
 * page by request interception (which turns Chromium's cache off: compare A and B with each other,
 * not with a run without --ab), so both see the same machine load. `--profile` records one more load of
 * each build with Chromium's CPU profiler and prints where its main thread spent the time.
 * `--replay` records the API answers of one load and then answers every page's API calls from that
 * record, at once: the loads measure the web app alone (bundle, request chain, drawing), without
 * the server's query time or its share of the CPU.
 * `--trace` records one more load of each build with Chromium's tracing and prints the renderer
 * main thread's time by kind of work (script, compile, style, layout, paint, ...), which the CPU
 * profile shows only as "(program)".
 * `--server` times the panels' API calls without a browser instead: each alone (median of `--runs`)
 * and the eight at once, as the page sends them. `--data-dir DIR` keeps the server's data there and
 * loads the data set only when DIR is new, so a changed server is measured over the same data.
 */
const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '10000' },
    'step-min': { type: 'string', default: '5' },
    hours: { type: 'string', default: '24' },
    runs: { type: 'string', default: '5' },
    clients: { type: 'string', default: '4' },
    ab: { type: 'string' },
    profile: { type: 'boolean', default: false },
    replay: { type: 'boolean', default: false },
    server: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = process.env.LANTERN_WEB_DIST ?? join(ROOT, 'packages/web/dist');
const SERIES = Number(args.series);
const STEP_MS = Number(args['step-min']) * 60_000;
const HOURS = Number(args.hours);
const RUNS = Number(args.runs);
const CLIENTS = Number(args.clients);

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

function bundleKb(dist = DIST): { initial: number; total: number } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  const gz = (f: string) => gzipSync(readFileSync(join(dist, 'assets', f))).length / 1024;
  return {
    initial: files.filter((f) => html.includes(f)).reduce((n, f) => n + gz(f), 0),
    total: files.reduce((n, f) => n + gz(f), 0),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** True once every panel shows its data: a drawn chart (ECharts finished drawing its option) or a table row. */
const ALL_PAINTED = `(() => {
  const panels = [...document.querySelectorAll('[data-testid="grid-panel"]')];
  return panels.length === ${PANELS.length} && panels.every((p) =>
    !p.querySelector('[data-testid="panel-loading"],[data-testid="panel-error"]') &&
    (p.querySelector('[data-testid="table-panel-row"]') || p.querySelector('[data-testid="echart"][data-drawn] canvas')));
})()`;

/** An API call's key without its time range (`time_gte`/`time_lt` follow the clock). */
const apiKey = (u: string) => {
  const url = new URL(u);
  for (const k of ['time_gte', 'time_lt']) url.searchParams.delete(k);
  return `${url.pathname}?${url.searchParams.toString()}`;
};

/** Records the API answers of one load of `url`, then serves them to every page from memory. */
async function replayApi(recorder: Page, pages: Page[], url: string): Promise<void> {
  const answers = new Map<string, { status: number; contentType: string; body: Buffer }>();
  const record = async (res: Response) => {
    if (!res.url().includes('/api/') || res.request().method() !== 'GET') return;
    const body = await res.body().catch(() => undefined);
    if (body)
      answers.set(apiKey(res.url()), {
        status: res.status(),
        contentType: res.headers()['content-type'] ?? 'application/json',
        body,
      });
  };
  recorder.on('response', (res) => void record(res));
  await recorder.goto(url);
  await recorder.waitForFunction(ALL_PAINTED, undefined, { timeout: 600_000, polling: 100 });
  await new Promise((r) => setTimeout(r, 500));
  recorder.removeAllListeners('response');
  console.log(`replay: ${answers.size} API answers recorded`);
  for (const p of pages)
    await p.context().route('**/api/**', (route) => {
      const a = answers.get(apiKey(route.request().url()));
      return a ? route.fulfill(a) : route.continue();
    });
}

/** Each panel's API call as the page sends it, over the last HOURS hours (to the minute). */
function panelPaths(): { name: string; path: string }[] {
  const lt = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const range = { time_gte: new Date(lt.getTime() - HOURS * 3600_000).toISOString(), time_lt: lt.toISOString() };
  return PANELS.map((p) => {
    if (p.type === 'heatmap') {
      const q = new URLSearchParams({ metric: p.params.metric ?? '', query: p.params.query, ...range });
      return { name: p.name, path: `/api/v1/metrics/1/heatmap?${q}` };
    }
    const q = new URLSearchParams();
    for (const m of p.params.metrics ?? []) {
      q.append('metric', m.name);
      q.append('alias', m.alias);
    }
    for (const [k, v] of Object.entries({ query: p.params.query, ...range })) q.append(k, v);
    return { name: p.name, path: `/api/v1/metrics/1/${p.type === 'chart' ? 'timeseries' : 'table'}?${q}` };
  });
}

/** `--server`: every panel call alone (median of RUNS after one warm-up), then all eight at once. */
async function timeServer(baseUrl: string, cookie: string) {
  const timed = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - t, kb: text.length / 1024 };
  };
  const paths = panelPaths();
  let total = 0;
  for (const { name, path } of paths) {
    await timed(path);
    const runs: number[] = [];
    let kb = 0;
    for (let i = 0; i < RUNS; i++) ({ ms: runs[i], kb } = await timed(path));
    total += median(runs);
    console.log(`  ${name.padEnd(22)} ${median(runs).toFixed(0).padStart(5)} ms median (${kb.toFixed(0)} kB)`);
  }
  console.log(`  sum of the medians     ${total.toFixed(0).padStart(5)} ms`);
  const together: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await Promise.all(paths.map((p) => timed(p.path)));
    together.push(performance.now() - t);
  }
  console.log(
    `  all 8 at once          ${median(together).toFixed(0).padStart(5)} ms median (runs: ${together.map((x) => x.toFixed(0)).join(', ')} ms)`,
  );
}

async function main() {
  if (!args.server) {
    const size = bundleKb();
    console.log(
      `bundle (${DIST}): initial ${size.initial.toFixed(0)} kB gzip, all chunks ${size.total.toFixed(0)} kB gzip`,
    );
  }
  const kept = args['data-dir'];
  const loaded = kept !== undefined && existsSync(kept);
  const lantern = await startLantern({ env: SERVER_ENV, ...(kept ? { dataDir: kept } : {}) });
  let browser: Browser | undefined;
  try {
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`;
    if (loaded) console.log(`data set kept in ${kept} (its times are those of the run that loaded it)`);
    else {
      const times = timeSteps(HOURS, STEP_MS);
      console.log(`encoding ${SERIES} series x ${times.length} steps (+ ${HOSTS} histograms) as OTLP...`);
      const list = bodies(times, SERIES, STEP_MS);
      const t0 = performance.now();
      await send(lantern.baseUrl, dsn, list, CLIENTS);
      console.log(`sent ${SERIES * times.length} counter points in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const cookie = await signIn(lantern.baseUrl);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${lantern.baseUrl}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { dashboard: { id: string } };
    };
    if (args.server) {
      await timeServer(lantern.baseUrl, cookie);
      return;
    }
    const chromium = (browser = await launchBrowser());
    const dashId = (await call('POST', '/api/v1/metrics/1/dashboards', { name: 'Bench' })).dashboard.id;
    for (const p of PANELS) await call('POST', `/api/v1/metrics/1/dashboards/${dashId}/grid`, p);

    /** API calls the page gave up (aborted): the server may still have run them. */
    const failed: string[] = [];
    /** A signed-in page; with `dist`, the page gets that build's files instead of the server's. */
    const openPage = async (dist?: string) => {
      const context = await chromium.newContext({ viewport: { width: 1600, height: 1000 } });
      if (dist) {
        const origin = new URL(lantern.baseUrl).origin;
        await context.route(
          (u) => u.origin === origin && !u.pathname.startsWith('/api/'),
          (route) => {
            const path = new URL(route.request().url()).pathname;
            const asset = join(dist, path);
            const file = path.startsWith('/assets/') && existsSync(asset) ? asset : join(dist, 'index.html');
            return route.fulfill({ contentType: MIME[extname(file)] ?? 'text/plain', body: readFileSync(file) });
          },
        );
      }
      const p = await context.newPage();
      p.on('requestfailed', (r) => {
        if (r.url().includes('/api/'))
          failed.push(`${r.failure()?.errorText ?? 'failed'}: ${decodeURIComponent(r.url()).slice(0, 140)}`);
      });
      await p.goto(`${lantern.baseUrl}/login`);
      await p.getByTestId('login-email').fill(DEFAULT_LOGIN.email);
      await p.getByTestId('login-password').fill(DEFAULT_LOGIN.password);
      await p.getByTestId('login-submit').click();
      await p.waitForURL(/\/overview\//);
      return p;
    };
    const url = `${lantern.baseUrl}/metrics/1/${dashId}?tab=grid&time_dur=${HOURS * 3600}`;
    // Both builds through interception in an A/B run: it turns Chromium's cache off, which would
    // slow B alone (every asset fetched on every load) and favour A.
    const pages = { A: await openPage(args.ab ? DIST : undefined), ...(args.ab ? { B: await openPage(args.ab) } : {}) };
    if (args.ab) console.log(`B: ${args.ab}, initial ${bundleKb(args.ab).initial.toFixed(0)} kB gzip`);
    if (args.replay) await replayApi(pages.A, Object.values(pages), url);
    const runs: Record<string, number[]> = { A: [], B: [] };
    for (let i = 0; i < RUNS + 1; i++) {
      for (const [which, p] of Object.entries(pages)) {
        const t = Date.now();
        await p.goto(url);
        await p.waitForFunction(ALL_PAINTED, undefined, { timeout: 120_000, polling: 16 });
        if (i > 0) runs[which].push(Date.now() - t);
      }
    }
    for (const [which, ms] of Object.entries(runs).filter(([, ms]) => ms.length > 0))
      console.log(
        `${args.ab ? `${which}: ` : ''}grid dashboard, 8 panels over ${HOURS} h of ${SERIES} series: all panels painted ${median(ms)} ms median (runs: ${ms.join(', ')} ms)`,
      );
    if (failed.length)
      console.log(`API calls the pages gave up: ${failed.length}, e.g.\n  ${failed.slice(-8).join('\n  ')}`);
    if (args.profile) for (const [which, p] of Object.entries(pages)) await profileLoad(which, p, url, ALL_PAINTED);
    if (args.trace)
      for (const [which, p] of Object.entries(pages)) await traceLoad(which, chromium, p, url, ALL_PAINTED);
    // Where the last load's time went, per build: every API call as the browser saw it (queued +
    // server + transfer) and when the last panel was painted.
    for (const [which, p] of Object.entries(pages)) {
      const calls = (await p.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/') || e.name.includes('/assets/'))
          .map((e) => ({
            url: decodeURIComponent(e.name),
            start: Math.round(e.startTime),
            ms: Math.round(e.duration),
          })),
      )) as { url: string; start: number; ms: number }[];
      console.log(`${args.ab ? `${which}, ` : ''}last load:`);
      for (const c of calls)
        console.log(
          `  +${c.start} ms, ${c.ms} ms: ${c.url
            .replace(/^https?:\/\/[^/]+/, '')
            .replace(/time_(gte|lt)=[^&]+&?/g, '')
            .slice(0, 110)}`,
        );
    }
  } catch (err) {
    console.error(`server output (last 3,000 characters):\n${lantern.output().slice(-3000)}`);
    throw err;
  } finally {
    await browser?.close();
    await lantern.stop();
    if (!kept) removeDataDir(lantern.dataDir);
  }
}

await main();
