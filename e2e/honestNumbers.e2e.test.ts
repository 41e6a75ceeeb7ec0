import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { PROJECT1_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { sendHonestNumbersData } from '@lantern/testkit/honestNumbersData';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';

/**
 * Numbers that mean what they say (issue 20, items 3 and 5), in the browser over real OTLP data
 * (honestNumbersData.ts): `GET /sparse` has spans in 2 minutes of the hour (100-300 ms, then
 * 400-500 ms); `POST /pay` carries an info log event; 3 ERROR and 2 INFO log records have no span.
 */
describe('honest numbers', () => {
  let lantern: RunningLantern;
  let browser: BrowserLease;
  let page: Page;
  const browserErrors: string[] = [];
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const ago = (minutes: number, ms = 0) => new Date(minute - minutes * 60_000 + ms);

  beforeAll(async () => {
    lantern = await startLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
    const cookie = await signIn(lantern.baseUrl);
    const opts = {
      httpUrl: lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`,
    };
    await sendHonestNumbersData(opts, { sparse: [ago(40), ago(10)], pay: ago(20), logs: ago(5) });
    const range = new URLSearchParams({ time_gte: ago(60).toISOString(), time_lt: ago(-1).toISOString() });
    for (let i = 0; i < 200; i++) {
      const r = (await (
        await fetch(`${lantern.baseUrl}/api/v1/tracing/1/systems?${range}`, { headers: { cookie } })
      ).json()) as { systems: { system: string; count: number }[] };
      const count = (s: string) => r.systems.find((x) => x.system === s)?.count;
      if (count('http:sparse') === 5 && count('log:error') === 3 && count('log:info') === 3) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    browser = await leaseBrowser();
    page = await (
      await signedInContext(browser, lantern.baseUrl, { viewport: { width: 1440, height: 900 } })
    ).newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
  });

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    if (lantern) removeDataDir(lantern.dataDir);
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${lantern.output().slice(-3000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      ),
    );
  const cell = (column: string) => page.locator(`[data-testid="timeseries-avg"][data-column="${column}"]`).first();
  /** "325 ms", "1.2 s" -> milliseconds. */
  const ms = (text: string) => {
    const m = /^([\d.]+)\s*(µs|ms|s)$/.exec(text.trim());
    if (!m) throw new Error(`not a duration: ${text}`);
    return Number(m[1]) * { µs: 1e-3, ms: 1, s: 1e3 }[m[2] as 'µs' | 'ms' | 's'];
  };

  it('timeseries: a chart for every column (p99 too), averages over the minutes with spans', async () => {
    explainFailures();
    await page.goto(`${lantern.baseUrl}/spans/1/timeseries?system=http:sparse`);
    await page.getByTestId('timeseries-groups').waitFor();
    const titles = await page.getByTestId('timeseries-chart').locator('h6, .MuiTypography-subtitle2').allInnerTexts();
    expect(titles).toEqual(['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)']);
    // p50 is about 200 ms in one minute and 450 ms in the other; zeros in the 58 empty minutes made it ~11 ms.
    const p50 = ms(await cell('p50(.duration)').innerText());
    expect(p50).toBeGreaterThan(150);
    expect(p50).toBeLessThan(500);
    expect(await cell('.error_rate').innerText()).toBe('0%');
    await page.waitForSelector('[data-testid="timeseries-chart"] [data-testid="echart"][data-ready] canvas');
    await screenshot(page, 'honest-01-timeseries');
    expect(browserErrors).toEqual([]);
  });

  it('log groups: "–" for durations, error rate by severity, "1 group" in the singular', async () => {
    explainFailures();
    const query = encodeURIComponent('group by .group_id | .count | .error_rate | p50(.duration)');
    await page.goto(`${lantern.baseUrl}/spans/1?system=log:error&query=${query}`);
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('groups-count').innerText()).resolves.toBe('1 group');
    await expect(
      page.locator('[data-testid="group-value"][data-column="p50(.duration)"]').allInnerTexts(),
    ).resolves.toEqual(['–']);
    await expect(
      page.locator('[data-testid="group-value"][data-column=".error_rate"]').allInnerTexts(),
    ).resolves.toEqual(['100%']);
    await page.goto(`${lantern.baseUrl}/spans/1?system=log:info&query=${query}`);
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('groups-count').innerText()).resolves.toBe('2 groups');
    await expect(
      page.locator('[data-testid="group-value"][data-column=".error_rate"]').allInnerTexts(),
    ).resolves.toEqual(['0%', '0%']);
    await screenshot(page, 'honest-02-log-groups');
    expect(browserErrors).toEqual([]);
  });

  it('log lists: newest first, no Dur. column or Duration filter; a log group monitors the events metric', async () => {
    explainFailures();
    await page.goto(`${lantern.baseUrl}/spans/1/items?system=log:info`);
    const rows = page.getByTestId('span-list-row');
    await expect.poll(() => rows.count()).toBe(3);
    const headers = await page.getByTestId('spans-card').locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim()).filter(Boolean)).toEqual(['Span Name', 'Time']);
    await expect(page.getByTestId('qb-duration').count()).resolves.toBe(0);
    // Newest first: the span-less INFO logs (5 minutes ago) before the log event of POST /pay (20).
    const times = await rows
      .locator('td[title]')
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('title') ?? ''));
    expect(times).toHaveLength(3);
    expect([...times].sort().reverse()).toEqual(times);
    expect(Date.parse(times[0]) - Date.parse(times[2])).toBeGreaterThan(10 * 60_000);
    await screenshot(page, 'honest-log-list');

    await page.goto(`${lantern.baseUrl}/spans/1?system=log:info`);
    await page.getByTestId('group-row').first().getByTestId('monitor-menu').click();
    await expect(page.getByRole('menuitem').allInnerTexts()).resolves.toEqual(['Monitor number of events']);
    await page.getByRole('menuitem', { name: 'Monitor number of events' }).click();
    await page.waitForURL(/\/alerting\/1\/monitors\/new-metric\?/);
    const prefill = new URL(page.url()).searchParams;
    expect(prefill.get('metric')).toBe('lantern.tracing.events');
    expect(prefill.get('query')).toMatch(/^per_min\(\$events\) \| where \.group_id = \d+$/);
    expect(browserErrors).toEqual([]);
  });

  it('overview: log:error tab with its count, no System column repeating the group name, pager text on one line', async () => {
    explainFailures();
    await page.goto(`${lantern.baseUrl}/overview/1/systems`);
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('overview-tab').allInnerTexts()).resolves.toContain('log:error (3)');
    const headers = await page.getByTestId('groups-table').locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).not.toContain('System');
    const names = page.getByTestId('group-name');
    // Names wrap between words only: no cell is narrower than its longest word.
    const fits = await names.evaluateAll((els) => els.every((e) => e.scrollWidth <= e.clientWidth));
    expect(fits).toBe(true);
    const pager = page.getByTestId('groups-pager-text');
    const box = await pager.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
      lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
    }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(box.lines).toBe(1);
    await screenshot(page, 'honest-03-overview');
    await page.getByTestId('overview-tab').filter({ hasText: 'log:error' }).click();
    await page.waitForURL(/groups\/log%3Aerror|groups\/log:error/);
    await expect
      .poll(
        () =>
          page
            .getByTestId('groups-card')
            .filter({ hasText: 'log:error groups' })
            .getByTestId('groups-count')
            .innerText(),
        { interval: 200 },
      )
      .toBe('1 group');
    await screenshot(page, 'honest-04-overview-log-error');
    expect(browserErrors).toEqual([]);
  });
});
