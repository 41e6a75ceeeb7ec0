import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signIn, startLantern } from '@lantern/testkit/harness';
import { launchBrowser, signedInContext } from '@lantern/testkit/pages/browser';
import type { Page } from 'playwright-core';
import { openBenchStore } from '../tracing/benchStore';
import { SERVER_ENV } from './serverEnv';

/**
 * `bench/web/tracingPages.ts` (issue 42): how long the tracing pages take to be drawn over a store
 * that `bench/tracing/run.ts` loaded (e.g. 100M spans over 24 h), in headless Chromium at 1440x900
 * against the real server on that data directory (its own project 1 and sign-in, as `run.ts` left
 * them). Pages: Overview (Systems tab), Explore groups, Explore spans and Explore timeseries, all
 * systems, over the last 1 h / 24 h / 7 d of the store: the date picker's address of a range
 * (`time_gte` and `time_dur`) ending at the store's end (`bench-tracing.json`'s `endMs`, whole
 * minutes), so the page makes the calls of "last 24 h" at that moment (a live range, `time_dur`
 * alone, would end at the machine's now: Playwright's fake clock also fakes `performance.now` and
 * animation frames, which the timing needs real). Each load is a full page load; the first round warms the server and
 * the browser and is not counted; the rounds go page by page and range by range in turn, so a change
 * of the machine's load touches every figure alike.
 *
 * Drawn: the page's API calls all answered and none for 500 ms (network quiet), and what the page
 * shows is there: no skeleton or progress bar, every ECharts chart drawn (`data-drawn`), and the
 * page's own content (Overview: the quick metrics and each group row in view with its 5 sparklines
 * drawn; groups: group rows; spans: span rows and the percentiles chart; timeseries: the charts,
 * the group rows and the duration heatmap). The figure is the later of the last API answer's end
 * and the moment the content was last found complete, from the navigation's start (the page's own
 * clock). For the median load it prints the page's API calls (start -> end, ms from the navigation).
 *
 *   cp -r /work/scratch/tracing100m /tmp/copy   # the server migrates and rolls up in it: a copy
 *   npm run build -w @lantern/web
 *   node --import tsx bench/web/tracingPages.ts --data-dir /tmp/copy [--ranges 1h,24h,7d] [--runs 5]
 *     [--pages overview,groups,spans,timeseries] [--web-dist DIR] [--server MAIN.js] [--replay]
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    ranges: { type: 'string', default: '1h,24h,7d' },
    pages: { type: 'string', default: 'overview,groups,spans,timeseries' },
    runs: { type: 'string', default: '5' },
    'web-dist': { type: 'string' },
    /** The server's main module: another version's bundle (`node scripts/buildServer.mjs` in a `git archive`). */
    server: { type: 'string' },
    /** Then each distinct API call of each page's median load, alone, `--runs` times (p50 over HTTP). */
    replay: { type: 'boolean', default: false },
  },
});
const DIR = args['data-dir'];
if (!DIR) throw new Error('--data-dir is required (a copy of a directory bench/tracing/run.ts loaded)');
const RUNS = Number(args.runs);
const SECONDS: Record<string, number> = { '1h': 3600, '24h': 86_400, '7d': 7 * 86_400 };
const QUIET_MS = 500;

/** Per page: its address and what must be on screen (a page expression, as text: no DOM types here). */
const PAGES: Record<string, { path: string; content: string }> = {
  overview: {
    path: '/overview/1/systems?system=all',
    content: `(() => {
      if (!document.querySelector('[data-testid="quick-metric"]')) return false;
      const rows = [...document.querySelectorAll('[data-testid="group-row"]')];
      const seen = rows.filter((r) => { const b = r.getBoundingClientRect(); return b.top < innerHeight && b.bottom > 0; });
      return seen.length > 0 && seen.every((r) => r.querySelectorAll('[data-testid="sparkline"][data-drawn="true"]').length >= 5);
    })()`,
  },
  groups: {
    path: '/spans/1?system=all',
    content: `document.querySelector('[data-testid="group-row"]') !== null`,
  },
  spans: {
    path: '/spans/1/items?system=all',
    content: `document.querySelector('[data-testid="span-list-row"]') !== null &&
      document.querySelector('[data-testid="pctile-rate"][data-drawn="true"]') !== null`,
  },
  timeseries: {
    path: '/spans/1/timeseries?system=all',
    content: `document.querySelector('[data-testid="timeseries-chart"] [data-drawn="true"]') !== null &&
      document.querySelector('[data-testid="timeseries-group-row"]') !== null &&
      document.querySelector('[data-testid="duration-heatmap"] [data-drawn="true"]') !== null`,
  },
};

/**
 * Installed in every page: each animation frame checks the page's content (set in `window.__content`
 * by the bench) and keeps in `window.__drawnAt` the moment it last turned complete.
 */
const WATCH = `(() => {
  window.__drawnAt = undefined;
  let was = false;
  const frame = () => {
    const check = window.__content;
    let now = false;
    if (check) {
      try {
        const charts = [...document.querySelectorAll('[data-testid="echart"], [data-testid="pctile-durations"], [data-testid="pctile-rate"]')];
        now = check() && charts.every((c) => c.getAttribute('data-drawn') === 'true') &&
          !document.querySelector('.MuiSkeleton-root, [role="progressbar"]');
      } catch { now = false; }
    }
    if (now && !was) window.__drawnAt = performance.now();
    if (!now) window.__drawnAt = undefined;
    was = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

interface Call {
  name: string;
  start: number;
  end: number;
}
interface Load {
  drawn: number;
  content: number;
  lastAnswer: number;
  calls: Call[];
}

async function loadOnce(page: Page, url: string, content: string): Promise<Load> {
  let inflight = 0;
  let lastChange = Date.now();
  const isApi = (u: string) => u.includes('/api/');
  const onRequest = (r: { url(): string }) => {
    if (!isApi(r.url())) return;
    inflight++;
    lastChange = Date.now();
  };
  const onDone = (r: { url(): string }) => {
    if (!isApi(r.url())) return;
    inflight--;
    lastChange = Date.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.evaluate(`window.__content = () => ${content}`).catch(() => undefined);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${url}: not drawn in 120 s`);
      await new Promise((r) => setTimeout(r, 50));
      if (inflight > 0 || Date.now() - lastChange < QUIET_MS) continue;
      // The content check may have been installed after the document was replaced: again, cheaply.
      const at = await page.evaluate<number | undefined>(`(window.__content ??= () => ${content}, window.__drawnAt)`);
      if (at !== undefined) break;
    }
    return await page.evaluate<Load>(`(() => {
      const calls = performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/'))
        .map((e) => ({ name: e.name.slice(e.name.indexOf('/api/')), start: e.startTime, end: e.responseEnd }));
      const lastAnswer = Math.max(0, ...calls.map((c) => c.end));
      return { drawn: Math.max(window.__drawnAt, lastAnswer), content: window.__drawnAt, lastAnswer, calls };
    })()`);
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

/** An API call as a short label: its path after the project, and the parameters that tell calls apart. */
function label(name: string): string {
  const u = new URL(name, 'http://x');
  const path = u.pathname.replace(/^\/api\/v1\//, '').replace(/\/1(\/|$)/, '$1');
  const keep = ['stats_column', 'column', 'attr', 'group_id', 'limit', 'sort_by'].filter((k) => u.searchParams.has(k));
  const q = u.searchParams.get('query');
  return `${path}${keep.length ? `[${keep.map((k) => `${k}=${u.searchParams.getAll(k).length}`).join(',')}]` : ''}${q ? ` q="${q.slice(0, 40)}"` : ''}`;
}

/**
 * Each distinct call of each page's median load, alone and one after the other, `--runs` times after
 * one warm-up: the issue's "p50 of 5 replays of the exact call the page makes".
 */
async function replay(baseUrl: string, loads: Map<string, Load[]>): Promise<void> {
  const cookie = await signIn(baseUrl);
  console.log(`each call alone, p50 of ${RUNS} (min-max), ms:`);
  for (const [key, ls] of loads) {
    const mid = [...ls].sort((a, b) => a.drawn - b.drawn)[Math.floor(ls.length / 2)];
    const urls = [...new Set(mid.calls.map((c) => c.name))];
    for (const u of urls) {
      const ms: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const t = performance.now();
        const res = await fetch(`${baseUrl}${u}`, { headers: { cookie } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${u}: ${res.status}`);
        if (i > 0) ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      console.log(
        `${key.padEnd(16)} ${median(ms).toFixed(0).padStart(6)} (${ms[0].toFixed(0)}-${ms[ms.length - 1].toFixed(0)})  ${label(u)}`,
      );
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(dir: string) {
  const { endMs, spans } = JSON.parse(readFileSync(join(dir, 'bench-tracing.json'), 'utf8')) as {
    endMs: number;
    spans: number;
  };
  // Migrations first, in-process (a new rollup can take minutes over a big store; the server gives
  // itself 60 s to start); not for another version's server (`--server`), which would refuse a
  // store with migrations it does not know.
  if (!args.server) {
    const store = openBenchStore(dir);
    await store.migrate();
    await store.close();
  }
  const lantern = await startLantern({
    dataDir: dir,
    env: { ...SERVER_ENV, ...(args['web-dist'] ? { LANTERN_WEB_DIST: args['web-dist'] } : {}) },
    ...(args.server ? { serverMain: args.server } : {}),
  });
  const browser = await launchBrowser();
  try {
    const context = await signedInContext(browser, lantern.baseUrl);
    await context.addInitScript(WATCH);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const pages = args.pages.split(',');
    const ranges = args.ranges.split(',');
    const loads = new Map<string, Load[]>();
    for (let round = 0; round <= RUNS; round++)
      for (const range of ranges)
        for (const name of pages) {
          const p = PAGES[name];
          const gte = new Date(endMs - SECONDS[range] * 1000).toISOString().replace(/[-:]|\.\d+Z$/g, '');
          const url = `${lantern.baseUrl}${p.path}&time_gte=${gte}&time_dur=${SECONDS[range]}`;
          const load = await loadOnce(page, url, p.content);
          if (round > 0)
            (loads.get(`${name} ${range}`) ?? loads.set(`${name} ${range}`, []).get(`${name} ${range}`)!).push(load);
        }
    console.log(`${spans} spans, store ending ${new Date(endMs).toISOString()}; median of ${RUNS} loads (all, ms):`);
    for (const [key, ls] of loads) {
      const sorted = [...ls].sort((a, b) => a.drawn - b.drawn);
      const mid = sorted[Math.floor(sorted.length / 2)];
      console.log(
        `${key.padEnd(16)} drawn ${median(ls.map((l) => l.drawn))
          .toFixed(0)
          .padStart(6)} ms ` +
          `(${ls.map((l) => l.drawn.toFixed(0)).join(', ')}); content ${median(ls.map((l) => l.content)).toFixed(0)}, ` +
          `last answer ${median(ls.map((l) => l.lastAnswer)).toFixed(0)}`,
      );
      for (const c of [...mid.calls].sort((a, b) => a.start - b.start))
        console.log(
          `    ${c.start.toFixed(0).padStart(6)} -> ${c.end.toFixed(0).padStart(6)} (${(c.end - c.start).toFixed(0).padStart(5)} ms)  ${label(c.name)}`,
        );
    }
    if (errors.length) console.log(`page errors: ${errors.join(' | ')}`);
    if (args.replay) await replay(lantern.baseUrl, loads);
  } finally {
    await browser.close();
    await lantern.stop();
  }
}

await main(DIR);
