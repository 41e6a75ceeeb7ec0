import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bigDemoTrace } from '../packages/server/src/demo/demoTraces';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { sendOtlp } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * A big trace on the trace page (issue 20 item 4): it opens collapsed below its first levels, has
 * expand all / collapse all, a search that finds spans by name or attribute value and scrolls to
 * them, and its funcs spans show in the system bar like any other system.
 */
const SPANS = 1_200;

describe('trace page on a big trace', () => {
  const t = useLantern();
  let browser: BrowserLease;
  let page: Page;
  let traceId: string;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    const big = bigDemoTrace(Date.now(), SPANS);
    traceId = big.traceId;
    await sendOtlp(t.lantern.baseUrl, t.dsn, big.body);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${t.lantern.baseUrl}/api/v1/tracing/1/traces/${traceId}`, {
        headers: { cookie: t.cookie },
      });
      if (res.ok) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    browser = await leaseBrowser();
    page = await (
      await signedInContext(browser, t.lantern.baseUrl, { viewport: { width: 1440, height: 900 } })
    ).newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${t.lantern.output().slice(-5000)}\n--- browser ---\n${browserErrors.join('\n')}`,
      ),
    );
  const levels = () =>
    page.getByTestId('span-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-level'))));

  it('opens collapsed below the first levels; expand all and collapse all', async () => {
    explainFailures();
    const trace = new TracePage(page);
    await trace.goto(t.lantern.baseUrl, 1, traceId);
    await trace.rows.first().waitFor();
    expect(Math.max(...(await levels()))).toBe(2);
    // The rows of level 2 that have children are closed.
    const closed = page.locator(
      '[data-testid="span-row"][data-level="2"] [data-testid="span-toggle"][aria-expanded="false"]:not([disabled])',
    );
    expect(await closed.count()).toBeGreaterThan(0);
    await screenshot(page, 'trace-tree-01-big-collapsed', { fullPage: false });

    await page.getByTestId('trace-expand-all').click();
    await expect.poll(async () => Math.max(...(await levels()))).toBeGreaterThan(2);
    await page.getByTestId('trace-collapse-all').click();
    await expect.poll(() => trace.rows.count()).toBe(1);
  });

  it('finds spans by attribute value and by name, opening and scrolling to each', async () => {
    explainFailures();
    const trace = new TracePage(page);
    // Everything is collapsed: the match has to be revealed. 'step42' is only in code.function
    // (the span is named 'step 42').
    await page.getByTestId('trace-search').fill('step42');
    const count = page.getByTestId('trace-search-count');
    await expect.poll(() => count.innerText()).toMatch(/^1 of \d+$/);
    const total = Number((await count.innerText()).split(' of ')[1]);
    expect(total).toBeGreaterThan(1);
    const focused = page.locator('[data-testid="span-row"][data-focused="true"]');
    await expect.poll(() => focused.count()).toBe(1);
    await expect(focused.getByTestId('span-name').innerText()).resolves.toBe('step 42');
    const inView = () =>
      focused.evaluate((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    await expect.poll(inView).toBe(true);
    const firstId = await focused.getAttribute('data-span-id');
    await screenshot(page, 'trace-tree-02-search', { fullPage: false });

    // Enter goes to the next match, Shift+Enter back.
    await page.getByTestId('trace-search').press('Enter');
    await expect.poll(() => count.innerText()).toBe(`2 of ${total}`);
    await expect.poll(() => focused.getAttribute('data-span-id')).not.toBe(firstId);
    await expect.poll(inView).toBe(true);
    await page.getByTestId('trace-search-prev').click();
    await expect.poll(() => focused.getAttribute('data-span-id')).toBe(firstId);

    // By name: the root.
    await page.getByTestId('trace-search').fill('GET /api/report');
    await expect.poll(() => count.innerText()).toBe('1 of 1');
    await page.getByTestId('trace-search').fill('no span is called this');
    await expect.poll(() => count.innerText()).toBe('No match');
    await expect(trace.root.isVisible()).resolves.toBe(true);
  });

  it('shows funcs spans in the system bar like the other systems', async () => {
    explainFailures();
    const names = await page.getByTestId('system-bar-item').allInnerTexts();
    expect(names.some((n) => n.startsWith('funcs'))).toBe(true);
    expect(browserErrors).toEqual([]);
  });
});
