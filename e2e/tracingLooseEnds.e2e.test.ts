import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoTraces } from '../packages/server/src/demo/demoTraces';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendOtlp, sendOtlpLogs } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Loose ends of the tracing screens, used as a person would: the span list's page lives in the
 * address (reload, a shared link, Back and Forward keep it). Demo shop traces go in over real
 * OTLP/HTTP.
 */
describe('tracing loose ends', () => {
  const t = useLantern();
  const ui = useSignedInPage(t, 'tracing-loose-ends', async () => {
    await sendOtlp(t.lantern.baseUrl, t.dsn, demoTraces({ now: Date.now(), traces: 60, seed: 5 }));
    await sendLogs(['INFO', 'cache warmed in 12ms'], ['WARN', 'queue 80% full'], ['ERROR', 'disk full on sda']);
  });
  /** Standalone OTLP/JSON log records, one per [severity, message], a second apart. */
  const sendLogs = async (...records: [string, string][]) => {
    const now = Date.now();
    const logRecords = records.map(([severityText, body], i) => ({
      timeUnixNano: String((now - (i + 1) * 1000) * 1e6),
      severityText,
      body: { stringValue: body },
    }));
    await sendOtlpLogs(t.lantern.baseUrl, t.dsn, 'worker', logRecords);
  };
  let page: Page;
  const explainFailures = () => {
    page = ui.page();
    ui.explainFailures();
  };
  const pagerText = () => page.getByTestId('spans-pager-text').innerText();
  const pageParam = () => new URL(page.url()).searchParams.get('page');
  /** The first span listed, once the list has loaded (the pager follows the address before the rows do). */
  const firstRow = async () => {
    await expect.poll(() => page.getByTestId('spans-table').getByRole('progressbar').count()).toBe(0);
    return page.getByTestId('span-list-row').first().innerText();
  };
  const clickPage = (n: number) =>
    page
      .getByTestId('spans-pager')
      .getByRole('button', { name: `Go to page ${n}`, exact: true })
      .click();

  it('the span list page is in the address: reload, a shared link, Back and Forward keep it', async () => {
    explainFailures();
    const list = `${t.lantern.baseUrl}/spans/1/items?system=http:frontend`;
    await page.goto(list);
    await page.getByTestId('span-list-row').first().waitFor();
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('1 - 10 of 60');
    const page1 = await firstRow();

    await clickPage(2);
    await expect.poll(pageParam).toBe('2');
    await expect.poll(pagerText).toBe('11 - 20 of 60');
    await clickPage(3);
    await expect.poll(pageParam).toBe('3');
    await expect.poll(pagerText).toBe('21 - 30 of 60');
    const page3 = await firstRow();
    expect(page3).not.toBe(page1);
    await screenshot(page, 'loose-ends-01-spans-page-3');

    // Reload: still page 3, the same spans.
    await page.reload();
    await page.getByTestId('span-list-row').first().waitFor();
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('21 - 30 of 60');
    await expect.poll(firstRow).toBe(page3);
    await expect(page.getByTestId('spans-pager').locator('[aria-current="page"]').innerText()).resolves.toBe('3');

    // Back goes to the page before, then to page 1; Forward returns.
    await page.goBack();
    await expect.poll(pageParam).toBe('2');
    await expect.poll(pagerText).toBe('11 - 20 of 60');
    await page.goBack();
    await expect.poll(pageParam).toBe(null);
    await expect.poll(pagerText).toBe('1 - 10 of 60');
    await expect.poll(firstRow).toBe(page1);
    await page.goForward();
    await expect.poll(pagerText).toBe('11 - 20 of 60');

    // A link shared from page 3 opens on page 3 in a fresh tab.
    const shared = `${list}&page=3`;
    const other = await page.context().newPage();
    await other.goto(shared);
    await other.getByTestId('span-list-row').first().waitFor();
    await expect
      .poll(() => other.getByTestId('spans-pager-text').innerText(), { timeout: 15_000 })
      .toBe('21 - 30 of 60');
    await other.close();
  });

  it('a new order or query starts at page 1; a page past the end goes to the last page', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=http:frontend&page=4`);
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('31 - 40 of 60');
    // Sorting by time: page 1 of the new order, and Back returns to page 4 of the old one.
    await page.getByTestId('spans-sort-time').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort_by')).toBe('.time');
    expect(pageParam()).toBe(null);
    await expect.poll(pagerText).toBe('1 - 10 of 60');
    await page.goBack();
    await expect.poll(pageParam).toBe('4');
    await expect.poll(pagerText).toBe('31 - 40 of 60');

    // A link to page 40 of 6 pages shows the last page, and the address says so.
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=http:frontend&page=40`);
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('51 - 60 of 60');
    await expect.poll(pageParam).toBe('6');
    await expect.poll(() => page.getByTestId('span-list-row').count()).toBe(10);
    // Nonsense pages are page 1.
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=http:frontend&page=-2`);
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('1 - 10 of 60');
    await screenshot(page, 'loose-ends-02-spans-page-1');
  });

  it('other systems on the Spans tab get their default order; Back returns to the order and page left', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=http:frontend`);
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('1 - 10 of 60');
    await page.getByTestId('spans-sort-time').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort_by')).toBe('.time');
    await clickPage(3);
    await expect.poll(pageParam).toBe('3');
    await expect.poll(pagerText).toBe('21 - 30 of 60');
    const left = await firstRow();

    // Logs: newest first, page 1. Then Spans: slowest first (duration, descending).
    await page.getByTestId('system-kind-logs').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('system')).toBe('log:all');
    expect(pageParam()).toBe(null);
    await expect.poll(() => page.getByTestId('spans-sort-time').getAttribute('class')).toContain('Mui-active');
    await page.getByTestId('system-kind-spans').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('system')).toBe('spans:all');
    await expect.poll(() => page.getByTestId('spans-sort-duration').getAttribute('class')).toContain('Mui-active');
    await screenshot(page, 'loose-ends-03-spans-all-by-duration');

    // Back twice: http:frontend again, still by time, on page 3, the same spans.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('system')).toBe('log:all');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('system')).toBe('http:frontend');
    await expect.poll(pagerText, { timeout: 15_000 }).toBe('21 - 30 of 60');
    await expect.poll(firstRow).toBe(left);
    await page.waitForTimeout(500);
    const url = new URL(page.url());
    expect([url.searchParams.get('sort_by'), url.searchParams.get('page')]).toEqual(['.time', '3']);
  });

  it('the Logs button counts the groups it opens, error logs included, and lists log:error', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1?system=http:frontend`);
    const logs = page.getByTestId('system-kind-logs');
    await logs.waitFor();
    const n = Number(/\((\d+)\)/.exec(await logs.innerText())![1]);
    await logs.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('system')).toBe('log:all');
    await page.getByTestId('group-row').first().waitFor();
    await expect.poll(() => page.getByTestId('groups-count').innerText(), { timeout: 15_000 }).toBe(`${n} groups`);
    const systems = await page.getByTestId('group-system').allInnerTexts();
    expect(systems).toContain('log:error');
    expect(systems).toContain('log:warn');

    // The picker, narrowed to logs, lists log:error under log:all with the same count.
    await page.getByTestId('system-picker').locator('input').click();
    const options = page.getByTestId('system-option');
    await options.first().waitFor();
    const listed = await options.evaluateAll((els) =>
      els.map((el) => `${el.getAttribute('data-system')} ${el.getAttribute('data-group-count')}`),
    );
    expect(listed).toContain(`log:all ${n}`);
    expect(listed.some((l) => l.startsWith('log:error '))).toBe(true);
    await screenshot(page, 'loose-ends-04-logs-kind');
    await page.keyboard.press('Escape');
  });
});
