import { parseArgs } from 'node:util';
import { removeDataDir, signIn, startLantern, tempDataDir } from '@lantern/testkit/harness';
import { launchBrowser, openSignedIn } from '@lantern/testkit/pages/browser';
import { SERVER_ENV } from './serverEnv';

/**
 * `bench/web/overview.ts`: the Overview's Systems tab (15 group rows of 5 sparklines) with the demo
 * data of "Send demo data" (`--demo` clicks, 300 traces each), in headless Chromium at 1440x900
 * against the real server. Per cold page load it times, from the navigation's start (the page's own
 * clock), the moment every group row in the viewport shows its drawn sparklines, and counts the
 * sparklines drawn and the group-stats calls made by then and 3 s later, and how long the drawing
 * took once the last of their series had come (from the last group-stats answer to the drawn rows:
 * the part the chart engine costs, apart from the server and the calls before; a groups answer that
 * carries the series counts as their last answer), and the page's calls (session, systems, groups,
 * group-stats: the first start and the last end before the rows were drawn). `--ab DIR` measures a
 * second web build over the same data (a server each, one after the other).
 *
 *   cd packages/web && npx vite build --outDir /tmp/web-new --emptyOutDir && cd ../..
 *   node --import tsx bench/web/overview.ts --web-dist /tmp/web-new [--ab /tmp/web-old] [--runs 7]
 */
const { values: args } = parseArgs({
  options: {
    'web-dist': { type: 'string' },
    ab: { type: 'string' },
    runs: { type: 'string', default: '7' },
    demo: { type: 'string', default: '1' },
  },
});
const RUNS = Number(args.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * In the page (as text: the bench has no DOM types): every row inside the viewport has as many drawn
 * sparklines as columns are plotted; the first moment it holds is kept in `window.drawnAt`.
 */
const inViewDrawn = (plotted: number) => `(() => {
  const rows = [...document.querySelectorAll('[data-testid="group-row"]')];
  if (rows.length === 0) return false;
  const seen = rows.filter((r) => {
    const box = r.getBoundingClientRect();
    return box.top < innerHeight && box.bottom > 0;
  });
  const done = seen.every((r) => r.querySelectorAll('[data-testid="sparkline"][data-drawn="true"]').length >= ${plotted});
  if (done) window.drawnAt ??= performance.now();
  return done;
})()`;
const drawnState = `({
  t: window.drawnAt,
  n: document.querySelectorAll('[data-testid="sparkline"][data-drawn="true"]').length,
  rows: document.querySelectorAll('[data-testid="group-row"]').length,
  lastStats: Math.max(...performance.getEntriesByType('resource')
    .filter((e) => (e.name.includes('/group-stats') || e.name.includes('stats_column')) && e.responseEnd <= window.drawnAt)
    .map((e) => e.responseEnd)),
  calls: Object.fromEntries(['/users/current', '/systems?', '/groups?', '/group-stats?'].map((k) => {
    const es = performance.getEntriesByType('resource').filter((e) => e.name.includes(k) && e.startTime <= window.drawnAt);
    return [k, es.length ? [Math.min(...es.map((e) => e.startTime)), Math.max(...es.map((e) => e.responseEnd))] : null];
  })),
})`;

async function measure(dataDir: string, webDist: string | undefined, sendDemo: boolean) {
  const lantern = await startLantern({
    dataDir,
    env: { ...SERVER_ENV, ...(webDist ? { LANTERN_WEB_DIST: webDist } : {}) },
  });
  const errors: string[] = [];
  const browser = await launchBrowser();
  const page = await openSignedIn(browser, lantern.baseUrl, errors);
  try {
    if (sendDemo) {
      const cookie = await signIn(lantern.baseUrl);
      for (let i = 0; i < Number(args.demo); i++) {
        const res = await fetch(`${lantern.baseUrl}/api/v1/projects/1/demo-data`, {
          method: 'POST',
          headers: { cookie },
        });
        if (!res.ok) throw new Error(`demo data: ${res.status} ${await res.text()}`);
      }
      await new Promise((r) => setTimeout(r, 3000)); // committed and visible to queries
    }
    const afterData: number[] = [];
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/group-stats')) calls++;
    });
    const times: number[] = [];
    const drawn: number[] = [];
    const later: number[] = [];
    const callsAt: number[] = [];
    const callsLater: number[] = [];
    let rows = 0;
    /** Per call kind: [first request's start, last answer's end] of each load, up to the drawn moment. */
    const waterfall: Record<string, [number, number][]> = {};
    for (let i = 0; i < RUNS + 1; i++) {
      calls = 0;
      await page.goto(`${lantern.baseUrl}/overview/1/systems?time_dur=3600`);
      await page.waitForFunction(inViewDrawn(5), undefined, { timeout: 60_000, polling: 'raf' });
      const at = await page.evaluate<{
        t: number;
        n: number;
        rows: number;
        lastStats: number;
        calls: Record<string, [number, number] | null>;
      }>(drawnState);
      const c = calls;
      await page.waitForTimeout(3000);
      const n3 = await page.locator('[data-testid="sparkline"][data-drawn="true"]').count();
      if (i === 0) continue; // the first load warms the server's caches and the browser's
      times.push(at.t);
      afterData.push(at.t - at.lastStats);
      drawn.push(at.n);
      later.push(n3);
      callsAt.push(c);
      callsLater.push(calls);
      rows = at.rows;
      for (const [k, v] of Object.entries(at.calls)) if (v) (waterfall[k] ??= []).push(v);
    }
    return { times, drawn, later, callsAt, callsLater, rows, afterData, errors, waterfall };
  } finally {
    await browser.close();
    await lantern.stop();
  }
}

async function main() {
  const dataDir = tempDataDir();
  try {
    const builds = [args['web-dist'], ...(args.ab ? [args.ab] : [])];
    for (const [i, dist] of builds.entries()) {
      const r = await measure(dataDir, dist, i === 0);
      console.log(
        `${dist ?? 'packages/web/dist'}: ${r.rows} group rows; sparklines in view drawn at ${median(r.times).toFixed(0)} ms ` +
          `(median of ${RUNS}; all: ${r.times.map((t) => t.toFixed(0)).join(', ')}), ` +
          `${median(r.drawn)} sparklines drawn then, ${median(r.later)} 3 s later; ` +
          `group-stats calls ${median(r.callsAt)} then, ${median(r.callsLater)} 3 s later; ` +
          `drawn ${median(r.afterData).toFixed(0)} ms after the last series came ` +
          `(all: ${r.afterData.map((t) => t.toFixed(0)).join(', ')})` +
          (r.errors.length ? `; page errors: ${r.errors.join(' | ')}` : ''),
      );
      console.log(
        `  calls, median start -> end (ms from the navigation): ${Object.entries(r.waterfall)
          .map(([k, v]) => `${k} ${median(v.map((x) => x[0])).toFixed(0)} -> ${median(v.map((x) => x[1])).toFixed(0)}`)
          .join('; ')}`,
      );
    }
  } finally {
    removeDataDir(dataDir);
  }
}

await main();
