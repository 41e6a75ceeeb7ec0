import { parseArgs } from 'node:util';
import { bigDemoTrace } from '../../packages/server/src/demo/demoTraces';
import { DEFAULT_LOGIN, PROJECT1_TOKEN, removeDataDir, signIn, startLantern } from '@lantern/testkit/harness';
import { launchBrowser } from '@lantern/testkit/pages/browser';
import { LoginPage } from '@lantern/testkit/pages/LoginPage';
import { sendOtlp } from '@lantern/testkit/tracingData';
import { SERVER_ENV } from './serverEnv';

/**
 * `bench/web/traceScroll.ts`: frame times while scrolling the trace page of one N-span trace
 * (default 10,000) in headless Chromium, fully expanded (every span a row). Each run scrolls the
 * window by `--px` pixels per animation frame for `--frames` frames and records the interval
 * between frames; the report gives the median, p95 and worst interval and the share of frames
 * over 16.7 ms (one frame late at 60 Hz) and over 50 ms (a visible stutter).
 *
 *   npm run build -w @lantern/web -- --outDir /tmp/web-trace
 *   LANTERN_WEB_DIST=/tmp/web-trace node --import tsx bench/web/traceScroll.ts [--spans 10000] [--runs 3] [--frames 600] [--px 120]
 */
const { values: args } = parseArgs({
  options: {
    spans: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    frames: { type: 'string', default: '600' },
    px: { type: 'string', default: '120' },
  },
});
const SPANS = Number(args.spans);
const RUNS = Number(args.runs);
const FRAMES = Number(args.frames);
const PX = Number(args.px);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main() {
  const lantern = await startLantern({ env: SERVER_ENV });
  const browser = await launchBrowser();
  try {
    const big = bigDemoTrace(Date.now(), SPANS);
    await sendOtlp(lantern.baseUrl, `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`, big.body);
    const cookie = await signIn(lantern.baseUrl);
    for (let ready = false; !ready;) {
      ready = (await fetch(`${lantern.baseUrl}/api/v1/tracing/1/traces/${big.traceId}`, { headers: { cookie } })).ok;
      if (!ready) await new Promise((r) => setTimeout(r, 300));
    }
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const login = new LoginPage(page);
    await login.goto(lantern.baseUrl);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\//);

    const t0 = Date.now();
    await page.goto(`${lantern.baseUrl}/traces/1/${big.traceId}`);
    await page.getByTestId('span-row').first().waitFor({ timeout: 60_000 });
    console.log(`${SPANS}-span trace: first row ${Date.now() - t0} ms after navigation`);
    const t1 = Date.now();
    await page.getByTestId('trace-expand-all').click();
    await page.waitForFunction(`document.documentElement.scrollHeight > ${SPANS * 40}`);
    console.log(
      `expand all: ${Date.now() - t1} ms; page ${await page.evaluate<number>('document.documentElement.scrollHeight')} px tall`,
    );

    const all: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.evaluate('window.scrollTo(0, 0)');
      // Runs in the page (as text: the bench is compiled without the DOM types).
      const intervals = await page.evaluate<number[]>(`new Promise((resolve) => {
        const out = [];
        let last = performance.now();
        const tick = (now) => {
          out.push(now - last);
          last = now;
          if (out.length > ${FRAMES}) return resolve(out.slice(1));
          window.scrollBy(0, ${PX});
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      })`);
      const rows = await page.getByTestId('span-row').count();
      all.push(...intervals);
      console.log(
        `run ${run + 1}: ${FRAMES} frames at ${PX} px/frame: median ${pct(intervals, 0.5).toFixed(1)} ms, p95 ${pct(intervals, 0.95).toFixed(1)} ms, worst ${Math.max(...intervals).toFixed(1)} ms; ` +
          `${((100 * intervals.filter((d) => d > 17.5).length) / intervals.length).toFixed(1)}% over 16.7 ms, ${intervals.filter((d) => d > 50).length} over 50 ms; ${rows} rows in the page`,
      );
    }
    console.log(
      `all runs: median ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms, p99 ${pct(all, 0.99).toFixed(1)} ms, worst ${Math.max(...all).toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await lantern.stop();
    removeDataDir(lantern.dataDir);
  }
}

await main();
