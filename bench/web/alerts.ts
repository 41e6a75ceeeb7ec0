import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { DEFAULT_LOGIN, removeDataDir, signIn, startLantern, tempDataDir } from '@lantern/testkit/harness';
import { launchBrowser } from '@lantern/testkit/pages/browser';
import { SERVER_ENV } from './serverEnv';

/**
 * `bench/web/alerts.ts`: the alert list with N alerts (default 10,000) in the metadata store
 * (SQLite). Times the list API (default open filter, a word search, an attribute filter, a deep
 * page, the created-at sort), the median and best of `--runs` calls (the best is the steadier figure
 * on a shared machine), and, when a web bundle is given,
 * the list page's first paint in headless Chromium (navigation to the first alert row).
 *
 *   cd packages/web && npx vite build --outDir /tmp/web-alerts --emptyOutDir && cd ../..
 *   node --import tsx bench/web/alerts.ts --web-dist /tmp/web-alerts [--alerts 10000] [--runs 7]
 *
 * Alerts are written straight into the store (the server is started once first to migrate it):
 * 70% open, 80% error alerts, attributes over 20 services, 50 hosts and 3 environments. When the
 * store has `alert_attrs` (migration 0006) their rows and `attrs_text` are written too, as the
 * alerts store does.
 */
const { values: args } = parseArgs({
  options: {
    alerts: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '7' },
    'web-dist': { type: 'string' },
  },
});
const ALERTS = Number(args.alerts);
const RUNS = Number(args.runs);

function seed(dataDir: string): boolean {
  const db = new SQLite(join(dataDir, 'lantern.db'));
  const hasAttrs = Boolean(
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'alert_attrs'").get(),
  );
  const insert = db.prepare(
    `INSERT INTO alerts (project_id, dedup_key, name, state, type, monitor_id, trackable_model, trackable_id, attrs, attrs_hash, params, created_at, updated_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAttr = hasAttrs
    ? db.prepare('INSERT INTO alert_attrs (alert_id, project_id, key, value) VALUES (?, 1, ?, ?)')
    : null;
  const setText = hasAttrs ? db.prepare('UPDATE alerts SET attrs_text = ? WHERE id = ?') : null;
  const t0 = Date.now() - ALERTS * 60_000;
  db.transaction(() => {
    for (let i = 0; i < ALERTS; i++) {
      const error = i % 5 !== 0;
      const attrs: Record<string, string> = {
        'service.name': `service-${i % 20}`,
        'host.name': `host-${i % 50}`,
        'deployment.environment': ['prod', 'staging', 'dev'][i % 3],
      };
      if (error) attrs['http.request.method'] = ['GET', 'POST', 'PUT', 'DELETE'][i % 4];
      const created = new Date(t0 + i * 60_000).toISOString();
      const updated = new Date(t0 + i * 60_000 + (i % 7) * 3600_000).toISOString();
      const params = error
        ? { traceId: 'ab'.repeat(16), spanId: String(1000 + i), spanCount: 1 + (i % 9), spanCountTime: updated }
        : {
            firing: 1,
            outlier: 0.95,
            minutes: 5,
            bounds: { min: null, max: 0.9 },
            monitor: {
              metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
              query: 'avg($cpu) as cpu',
              column: 'cpu',
              columnUnit: 'utilization',
            },
          };
      const name = error
        ? `${['GET', 'POST', 'PUT', 'DELETE'][i % 4]} /api/route-${i % 400} failed: error ${i}`
        : `CPU high on host-${i % 50} #${i}`;
      const r = insert.run(
        `bench:${i}`,
        name,
        i % 10 < 7 ? 'open' : 'closed',
        error ? 'error' : 'metric',
        error ? 0 : 1,
        error ? 'SpanGroup' : '',
        error ? String(i) : '',
        JSON.stringify(attrs),
        String(i),
        JSON.stringify(params),
        created,
        updated,
      );
      if (insertAttr) for (const [k, v] of Object.entries(attrs)) insertAttr.run(r.lastInsertRowid, k, v);
      setText?.run(Object.values(attrs).join('\n').toLowerCase(), r.lastInsertRowid);
    }
  })();
  db.close();
  return hasAttrs;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dataDir = tempDataDir();
  const env = { ...SERVER_ENV, ...(args['web-dist'] ? { LANTERN_WEB_DIST: args['web-dist'] } : {}) };
  // Once to migrate the store, then again over the seeded alerts.
  await (await startLantern({ dataDir, env })).stop();
  const sql = seed(dataDir);
  const lantern = await startLantern({ dataDir, env });
  try {
    const cookie = await signIn(lantern.baseUrl);
    console.log(`${ALERTS} alerts (${sql ? 'SQL filtering' : 'store without alert_attrs'}), median of ${RUNS} calls:`);
    const cases: [string, string][] = [
      ['default (open, page 1 of 10)', 'limit=10'],
      ['all states, page 1 of 10', 'q=&limit=10'],
      ['word search', 'q=route-17&limit=10'],
      ['attribute filter', 'attrs[service.name]=service-3&attrs[alert.state]=open&limit=10'],
      ['two attribute filters', 'attrs[service.name]=service-3&attrs[host.name]=host-3&limit=10'],
      ['page 500 of 10', 'q=&page=500&limit=10'],
      ['created_at ascending, page 1 of 100', 'q=&sort_by=created_at&sort_desc=false&limit=100'],
    ];
    for (const [name, query] of cases) {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < RUNS + 1; i++) {
        const t = performance.now();
        const res = await fetch(`${lantern.baseUrl}/api/v1/projects/1/alerts?${query}`, { headers: { cookie } });
        const body = (await res.json()) as { count: number; alerts: unknown[] };
        if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(body)}`);
        if (i > 0) times.push(performance.now() - t);
        count = body.count;
      }
      console.log(
        `  ${name.padEnd(40)} median ${median(times).toFixed(1).padStart(7)} ms, best ${Math.min(...times)
          .toFixed(1)
          .padStart(6)} ms   (count ${count})`,
      );
    }

    if (args['web-dist'] && existsSync(args['web-dist'])) {
      const browser = await launchBrowser();
      try {
        const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
        await page.goto(`${lantern.baseUrl}/login`);
        await page.getByTestId('login-email').fill(DEFAULT_LOGIN.email);
        await page.getByTestId('login-password').fill(DEFAULT_LOGIN.password);
        await page.getByTestId('login-submit').click();
        await page.waitForURL(/\/overview\//);
        const paints: number[] = [];
        const shells: number[] = [];
        const apis: number[] = [];
        for (let i = 0; i < RUNS + 1; i++) {
          const t = Date.now();
          let api = 0;
          const onResponse = (r: { url(): string }) => {
            if (r.url().includes('/api/v1/projects/1/alerts?')) api = Date.now() - t;
          };
          page.on('response', onResponse);
          await page.goto(`${lantern.baseUrl}/alerting/1/alerts`);
          await page.getByTestId('alert-selection-bar').waitFor({ timeout: 30_000 });
          const shell = Date.now() - t;
          await page.getByTestId('alert-row').first().waitFor({ timeout: 30_000 });
          page.off('response', onResponse);
          if (i > 0) {
            paints.push(Date.now() - t);
            shells.push(shell);
            apis.push(api);
          }
        }
        console.log(
          `alert list first paint (navigation to the first row): ${median(paints)} ms (median of ${RUNS} cold page loads; max ${Math.max(...paints)} ms)`,
        );
        console.log(
          `  of which: page shell (toolbar, selection bar) ${median(shells)} ms, list answer received ${median(apis)} ms after navigation`,
        );
      } finally {
        await browser.close();
      }
    }
  } finally {
    await lantern.stop();
    removeDataDir(dataDir);
  }
}

await main();
