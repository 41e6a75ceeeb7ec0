import { textSearchWhere } from '@lantern/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendOtlpLogs } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The live tail in Explore, as a person uses it (issue 38): on the Spans tab of the logs, Live
 * shows a log sent after it was switched on, newest on top, the search word marked and a counter
 * of rows received; Pause keeps the list still while rows keep being counted, Resume shows them;
 * a reload keeps Live on (`live=1`).
 */
describe('live tail', () => {
  const t = useLantern({ env: { LANTERN_TAIL_POLL_MS: '300', LANTERN_TAIL_SETTLE_MS: '500' } });
  const ui = useSignedInPage(t, 'live-tail', () => sendLog('live-e2e warming up before the page opens'));
  /** One standalone OTLP/JSON log record, stored when this resolves. */
  const sendLog = (message: string) =>
    sendOtlpLogs(t.lantern.baseUrl, t.dsn, 'worker', [
      { timeUnixNano: String(Date.now() * 1e6), severityText: 'INFO', body: { stringValue: message } },
    ]);
  let page: Page;
  const names = () => page.getByTestId('span-list-name').allInnerTexts();
  const received = () => page.getByTestId('live-received').innerText();

  it('shows a log sent after Live was switched on, and Pause stops the list', async () => {
    page = ui.page();
    ui.explainFailures();
    const query = textSearchWhere('live-e2e');
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=log:all&query=${encodeURIComponent(query)}`);
    await page.getByTestId('live-start').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('live')).toBe('1');
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Live');
    await expect.poll(() => page.getByTestId('spans-waiting').count()).toBe(1);

    await sendLog('live-e2e order 1 shipped');
    await sendLog('an unrelated line');
    await expect.poll(names, { timeout: 15_000 }).toEqual(['INFO live-e2e order 1 shipped']);
    expect(await received()).toMatch(/^1 row received/);
    expect(await page.getByTestId('search-word').first().innerText()).toBe('live-e2e');
    await sendLog('live-e2e order 2 shipped');
    await expect
      .poll(names, { timeout: 15_000 })
      .toEqual(['INFO live-e2e order 2 shipped', 'INFO live-e2e order 1 shipped']);
    await screenshot(page, 'live-tail-live');

    await page.getByTestId('live-pause').click();
    await sendLog('live-e2e order 3 shipped');
    // Counted, not shown, while paused.
    await expect.poll(received, { timeout: 15_000 }).toMatch(/^3 rows received, 1 new while paused/);
    expect(await names()).toEqual(['INFO live-e2e order 2 shipped', 'INFO live-e2e order 1 shipped']);
    expect(await page.getByTestId('live-state').innerText()).toBe('Paused');
    await screenshot(page, 'live-tail-paused');
    await page.getByTestId('live-resume').click();
    expect((await names())[0]).toBe('INFO live-e2e order 3 shipped');

    // Opening a row pauses too, so the list does not move under the dialog.
    await page.getByTestId('span-list-row').first().click();
    await expect.poll(() => page.getByTestId('live-auto-paused').count()).toBe(1);
    await page.keyboard.press('Escape');

    // A reload keeps Live on, with the systems and the query.
    await page.reload();
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Live');
    await sendLog('live-e2e after the reload');
    await expect.poll(names, { timeout: 15_000 }).toEqual(['INFO live-e2e after the reload']);
    await page.getByTestId('live-stop').click();
    await expect.poll(() => page.getByTestId('spans-count').count()).toBe(1);
    await expect.poll(() => new URL(page.url()).searchParams.get('live')).toBeNull();
    // The builder's help says what Live does.
    await page.getByTestId('qb-help').click();
    expect(await page.getByTestId('live-help').innerText()).toMatch(/Live tail[\s\S]*Pause/);
    await screenshot(page, 'live-tail-help', { fullPage: false });
    expect(ui.errors()).toEqual([]);
  });
});
