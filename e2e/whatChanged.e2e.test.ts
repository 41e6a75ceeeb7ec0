import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { useLantern } from '@lantern/testkit/useLantern';
import { sendWhatChangedSpans, WHAT_CHANGED } from '@lantern/testkit/whatChangedData';

/**
 * What changed (issue 38) in Explore spans, Timeseries tab: 200 spans over real OTLP where
 * `feature.flag = new-cart` explains the slow ones (testkit whatChangedData.ts). A rectangle dragged
 * over the slow row of the duration heatmap opens What changed with that key first; a click on its
 * value narrows the query; Errors explains the failed spans; the Spans tab links to it.
 */
describe('what changed', () => {
  const t = useLantern();
  const ui = useSignedInPage(t, 'what-changed', async () => {
    const base = Math.floor((Date.now() - 15 * 60_000) / 60_000) * 60_000;
    await sendWhatChangedSpans({ httpUrl: t.lantern.baseUrl, dsn: t.dsn }, base);
  });
  let page: Page;

  it('a heatmap selection opens What changed, and a click on a value narrows the query', async () => {
    page = ui.page();
    ui.explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, '/timeseries?system=http:all');
    const heatmap = page.getByTestId('duration-heatmap');
    await heatmap.locator('[data-drawn="true"]').waitFor({ timeout: 20_000 });

    // Drag across the top row of cells: the slowest bin (500 ms - 1 s), over the whole range.
    const box = (await heatmap.locator('canvas').first().boundingBox())!;
    const top = box.y + 15; // the grid's top (heatmapOption)
    await page.mouse.move(box.x + 62, top + 3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, top + 8, { steps: 5 });
    await page.mouse.move(box.x + box.width - 21, top + 10, { steps: 5 });
    await page.mouse.up();

    await page.waitForURL((url) => url.searchParams.get('selection')?.includes('.duration >= 500ms') ?? false);
    const panel = page.getByTestId('what-changed');
    const first = panel.getByTestId('what-changed-attr').first();
    await expect.poll(() => first.getAttribute('data-key'), { timeout: 20_000 }).toBe('feature.flag');
    const newCart = first.locator('[data-testid="what-changed-value"][data-value="new-cart"]');
    await expect(newCart.getByTestId('what-changed-selection-pct').getAttribute('data-pct')).resolves.toBe('90');
    await expect(newCart.getByTestId('what-changed-baseline-pct').getAttribute('data-pct')).resolves.toBe('5');
    await expect(panel.innerText()).resolves.toContain(`Selection: ${WHAT_CHANGED.slow} spans`);
    // A unique id is not offered.
    await expect(panel.locator('[data-key="request.id"]').count()).resolves.toBe(0);
    await screenshot(page, 'what-changed-01-selection');

    // A click on the value adds it to the query: the baseline is now the 8 fast new-cart spans.
    await newCart.getByTestId('what-changed-value-link').click();
    await page.waitForURL((url) => url.searchParams.get('query')?.includes('where feature.flag = "new-cart"') ?? false);
    await expect.poll(async () => (await explore.chipTexts()).join(' | ')).toContain('feature.flag = "new-cart"');
    await expect
      .poll(() => panel.innerText(), { timeout: 20_000 })
      .toContain('Baseline (the other spans of the query): 8 spans');
    await expect(panel.innerText()).resolves.toContain('Selection: 36 spans');
    await screenshot(page, 'what-changed-02-narrowed');
  });

  it('explains the errors, and the Spans tab links to it', async () => {
    ui.explainFailures();
    // Back to every span of the query, on the Spans tab.
    await page.getByTestId('query-chip').filter({ hasText: 'feature.flag' }).getByTestId('query-chip-delete').click();
    await page.waitForURL((url) => !url.searchParams.get('query')?.includes('feature.flag'));
    await page.getByTestId('tab-spans').click();
    await page.getByTestId('what-changed-errors-link').click();
    await page.waitForURL((url) => url.pathname === '/spans/1/timeseries' && url.searchParams.has('selection'));
    await expect(page.getByTestId('what-changed-selection').innerText()).resolves.toBe('where .status_code = "error"');
    const panel = page.getByTestId('what-changed');
    const first = panel.getByTestId('what-changed-attr').first();
    await expect.poll(() => first.getAttribute('data-key'), { timeout: 20_000 }).toBe('payment.provider');
    await expect(panel.innerText()).resolves.toContain(`Selection: ${WHAT_CHANGED.errors} spans`);
    await expect(
      first.locator('[data-value="acme"]').getByTestId('what-changed-selection-pct').getAttribute('data-pct'),
    ).resolves.toBe('100');
    await screenshot(page, 'what-changed-03-errors');

    // The query builder's Help says how.
    await page.getByTestId('qb-help').click();
    await expect(page.getByTestId('query-help-what-changed').innerText()).resolves.toContain(
      'drag a rectangle over the duration heatmap',
    );
    await screenshot(page, 'what-changed-04-help', { fullPage: false });
  });
});
