import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DEFAULT_LOGIN, startLantern } from '@lantern/testkit/harness';
import { launchBrowser } from '@lantern/testkit/pages/browser';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { bigTraceStatements, generationStatements } from '../tracing/generate';
import { SERVER_ENV } from './serverEnv';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../../packages/server/src/metricsFromSpans';

/**
 * `bench/web`: the tracing screens in headless Chromium against the real server holding N generated
 * spans (default 1M over 24 h) plus one 10,000-span trace. Measures the Overview's first meaningful
 * paint (navigation to the quick metrics and the first group row), the trace page on the big trace
 * (first row, collapse + expand of the root), and the production bundle (gzip, initial and total).
 *
 *   npm run build -w @lantern/web && node --import tsx bench/web/run.ts [--spans 1000000] [--runs 5]
 */
const { values: args } = parseArgs({
  options: {
    spans: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPANS = Number(args.spans);
const RUNS = Number(args.runs);
const DATA_DIR = args['data-dir'] ?? join(ROOT, `bench/results/web-data-${SPANS}`);
const TRACE_HEX = 'c2'.repeat(16);
const TRACE_SPANS = 10_000;
const MARKER = join(DATA_DIR, 'bench-web.json');

async function load(): Promise<void> {
  if (existsSync(MARKER)) return console.log(`reusing ${SPANS} spans in ${DATA_DIR}`);
  mkdirSync(DATA_DIR, { recursive: true });
  const store = openChdbStore({
    path: join(DATA_DIR, 'ch'),
    ttl: { spansDays: 30, metricsDays: 30 },
    maxMemoryUsage: 4 * 1024 ** 3,
    maxThreads: 2,
    spanMetrics: spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
  });
  await store.migrate();
  const endMs = Math.floor(Date.now() / 60_000) * 60_000;
  for (const s of generationStatements({ spans: SPANS, endMs, rangeMs: 24 * 3600_000, chunk: 1_000_000, projectId: 1 }))
    await store.query(s);
  for (const s of bigTraceStatements({
    spans: TRACE_SPANS,
    traceHex: TRACE_HEX,
    startMs: endMs - 30 * 60_000,
    projectId: 1,
  }))
    await store.query(s);
  await store.close();
  writeFileSync(MARKER, JSON.stringify({ spans: SPANS, endMs }));
}

function bundle(): { initialKb: number; totalKb: number } {
  const dist = join(ROOT, 'packages/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const gz = (file: string) => gzipSync(readFileSync(join(dist, 'assets', file))).length / 1024;
  const files = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  const initial = files.filter((f) => html.includes(f));
  return { initialKb: initial.reduce((n, f) => n + gz(f), 0), totalKb: files.reduce((n, f) => n + gz(f), 0) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const size = bundle();
  console.log(`bundle: initial ${size.initialKb.toFixed(0)} kB gzip, all chunks ${size.totalKb.toFixed(0)} kB gzip`);
  await load();
  const lantern = await startLantern({ dataDir: DATA_DIR, env: SERVER_ENV });
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(`${lantern.baseUrl}/login`);
    await page.getByTestId('login-email').fill(DEFAULT_LOGIN.email);
    await page.getByTestId('login-password').fill(DEFAULT_LOGIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/overview\//);

    const metrics: number[] = [];
    const groups: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const t = Date.now();
      await page.goto(`${lantern.baseUrl}/overview/1/systems?system=all&time_dur=3600`);
      await page.getByTestId('quick-metric').first().waitFor({ timeout: 60_000 });
      const m = Date.now() - t;
      await page.getByTestId('group-row').first().waitFor({ timeout: 60_000 });
      const g = Date.now() - t;
      if (i > 0) {
        metrics.push(m);
        groups.push(g);
      }
    }
    console.log(
      `overview (${SPANS} spans, 1 h): quick metrics ${median(metrics)} ms, first group row ${median(groups)} ms (median of ${RUNS}, cold page load each)`,
    );

    const first: number[] = [];
    const toggle: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = Date.now();
      await page.goto(`${lantern.baseUrl}/traces/1/${TRACE_HEX}`);
      await page.getByTestId('span-row').first().waitFor({ timeout: 60_000 });
      first.push(Date.now() - t);
      const rows = await page.getByTestId('span-row').count();
      const u = Date.now();
      await page.getByTestId('span-toggle').first().click();
      await page.waitForFunction(`document.querySelectorAll('[data-testid="span-row"]').length === 1`);
      await page.getByTestId('span-toggle').first().click();
      await page.waitForFunction(`document.querySelectorAll('[data-testid="span-row"]').length === ${rows}`);
      toggle.push(Date.now() - u);
    }
    console.log(
      `trace page (${TRACE_SPANS} spans): first row ${median(first)} ms, collapse + expand root ${median(toggle)} ms (median of ${RUNS})`,
    );
  } finally {
    await browser.close();
    await lantern.stop();
  }
}

await main();
