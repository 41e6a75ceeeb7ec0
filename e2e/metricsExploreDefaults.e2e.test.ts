import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { DashFormDialog, DashGridPage } from '@lantern/testkit/pages/DashGridPage';
import { MetricsExplorePage } from '@lantern/testkit/pages/MetricsExplorePage';
import { useLantern } from '@lantern/testkit/useLantern';
import { apiAs, createShopDashboard, HOSTS } from './shopDashboard';

/**
 * What a new user meets first on the metrics screens: a histogram opened in Explore or picked in a
 * dashboard chart starts with its average and its rate (reference MetricsPicker), the rate's
 * unitless column reads 'none' in the unit picker, a metric that stopped reporting reads 'NO DATA'
 * rather than a chart of zeros, and the dashboard query above the grid (joined to every panel)
 * offers where and group by, not an aggregation.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

/** A gauge whose last point is 3 hours old: a metric that stopped reporting, as OTLP/JSON. */
async function sendStoppedGauge(): Promise<void> {
  const at = BigInt(Date.now() - 3 * 3600_000) * 1_000_000n;
  const points = [0, 1, 2].map((i) => ({
    attributes: [{ key: 'job', value: { stringValue: 'sync' } }],
    timeUnixNano: String(at - BigInt(i) * 60_000_000_000n),
    asDouble: 120 + i,
  }));
  const body = {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'batch' } }] },
        scopeMetrics: [
          {
            metrics: [
              {
                name: 'batch.sync.duration',
                unit: 'ms',
                description: 'Nightly sync duration',
                gauge: { dataPoints: points },
              },
            ],
          },
        ],
      },
    ],
  };
  const res = await fetch(`${server.lantern.baseUrl}/v1/metrics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lantern-dsn': server.dsn },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const api = apiAs(server);
  for (let i = 0; i < 100; i++) {
    const list = await api<{ metrics: { name: string }[] }>('GET', '/api/v1/metrics/1');
    if (list.metrics.some((m) => m.name === 'batch.sync.duration')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('batch.sync.duration never listed');
}

let browser: BrowserLease;
let page: Page;
let dashId: string;
const browserErrors: string[] = [];
const explainFailures = (name: string) =>
  onTestFailed(async () => {
    console.error(
      `--- Lantern output ---\n${server.lantern.output().slice(-4000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
    );
    await screenshot(page, `metrics-defaults-failure-${name}`, { always: true }).catch(() => undefined);
  });

beforeAll(async () => {
  dashId = await createShopDashboard(server);
  await sendStoppedGauge();
  browser = await leaseBrowser();
  const context = await signedInContext(browser, server.lantern.baseUrl, { viewport: { width: 1440, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (err) => browserErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
});

describe('metrics defaults and empty states', () => {
  it('a histogram opened in Explore charts its average and its rate; the rate column reads unit "none"', async () => {
    explainFailures('explore');
    const explore = new MetricsExplorePage(page);
    await explore.goto(server.lantern.baseUrl, 1);
    await explore.open('shop.latency');
    await expect
      .poll(() => explore.dialog.getByTestId('query-part').allInnerTexts())
      .toEqual(['avg($latency)', 'per_min(count($latency))']);
    // The picked metric's name reads as text (read-only), not greyed out like an empty field's placeholder.
    const name = explore.dialog.getByTestId('picked-metric-name');
    await expect(name.inputValue()).resolves.toBe('shop.latency');
    await expect(name.isDisabled()).resolves.toBe(false);
    await expect(name.isEditable()).resolves.toBe(false);
    const alpha = (css: string) => Number(/rgba?\([^)]*?,\s*[\d.]+,\s*[\d.]+(?:,\s*([\d.]+))?\)/.exec(css)?.[1] ?? 1);
    const fill = await name.evaluate((el) => getComputedStyle(el).webkitTextFillColor || getComputedStyle(el).color);
    expect(alpha(fill)).toBeGreaterThan(0.6);
    await expect.poll(() => explore.chart.getByTestId('legend-name').allInnerTexts()).toHaveLength(2);
    const legend = await explore.chart.getByTestId('legend-table').innerText();
    expect(legend).toMatch(/avg\(\$latency\)\s+[\d.]+ms/);
    // The rate has no unit: its picker says so instead of showing an empty box with the column name in it.
    const units = explore.dialog.getByTestId('column-unit');
    await expect.poll(() => units.count()).toBe(2);
    await expect(units.nth(0).innerText()).resolves.toContain('milliseconds');
    await expect(units.nth(1).innerText()).resolves.toMatch(/per_min\(count\(\$latency\)\)\s+none/);
    await screenshot(page, 'metrics-defaults-01-histogram');
  });

  it('a metric that stopped reporting reads NO DATA for the last hour, not a legend of zeros', async () => {
    explainFailures('stopped');
    const explore = new MetricsExplorePage(page);
    // Six hours back it is in the list; opened there, then the range narrowed to the last hour.
    await explore.goto(server.lantern.baseUrl, 1, '?time_dur=21600');
    await explore.open('batch.sync.duration');
    await expect.poll(() => explore.dialog.getByTestId('query-part').allInnerTexts()).toEqual(['avg($duration)']);
    await expect.poll(() => explore.chart.getByTestId('legend-table').innerText()).toMatch(/avg\(\$duration\)\s+12\d/);
    // The address follows the screen after a 100 ms debounce (useAddressState): a loaded machine drew the
    // legend before the metric reached the URL once, and the narrowed page opened without it.
    await page.waitForURL((u) => u.searchParams.get('metric') === 'batch.sync.duration');
    const url = new URL(page.url());
    url.searchParams.set('time_dur', '3600');
    url.searchParams.delete('time_gte');
    await page.goto(url.toString());
    await explore.dialog.waitFor();
    await expect.poll(() => explore.chart.innerText()).toContain('NO DATA');
    await expect(explore.chart.getByTestId('legend-table').count()).resolves.toBe(0);
    await screenshot(page, 'metrics-defaults-02-stopped');
  });

  it('the dashboard query above the grid narrows every panel and offers no aggregation', async () => {
    explainFailures('grid-query');
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const toolbar = page.getByTestId('grid-query');
    await toolbar.getByTestId('add-where').waitFor();
    await expect(toolbar.getByTestId('add-aggregation').count()).resolves.toBe(0);
    await expect(toolbar.getByTestId('add-group-by').count()).resolves.toBe(1);
    const text = await toolbar.innerText();
    expect(text).not.toContain('No query yet');
    expect(text).toContain('applies to every panel');
    await screenshot(page, 'metrics-defaults-03-grid-query');
    // A group by there reaches the panels and can be saved with the dashboard.
    await toolbar.getByTestId('add-group-by').click();
    await page.getByRole('menuitem', { name: 'host', exact: true }).click();
    await expect.poll(() => toolbar.getByTestId('query-part').allInnerTexts()).toEqual(['group by host']);
    await page.getByTestId('grid-query-save').waitFor();
  });

  it("a table panel's header says how the range became one number", async () => {
    explainFailures('table-over');
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const table = grid.panels.filter({ hasText: 'Requests by route' }).getByTestId('table-panel');
    await expect.poll(() => table.locator('th').allInnerTexts()).toEqual(['route', 'sum($req)\ntotal over the range']);
  });

  it('a histogram picked in a chart form starts with its average and rate, each with its unit', async () => {
    explainFailures('chart-form');
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await grid.addVisualization('Chart');
    const form = new DashFormDialog(page, 'chart-form');
    await form.root.waitFor();
    await form.field('metric-search').click();
    await page.getByTestId('metric-option').filter({ hasText: 'shop.latency' }).click();
    await expect
      .poll(() => form.root.getByTestId('query-part').allInnerTexts())
      .toEqual(['avg($latency)', 'per_min(count($latency))']);
    const units = form.root.getByTestId('column-unit');
    await expect.poll(() => units.count()).toBe(2);
    await expect(units.nth(1).innerText()).resolves.toMatch(/none/);
    await form.preview.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await screenshot(page, 'metrics-defaults-04-chart-form');
    await form.root.getByRole('button', { name: 'Cancel' }).click();
    await form.root.waitFor({ state: 'detached' });
  });
});

/**
 * PromQL in the web app (issue 37): Metrics explore's PromQL mode completes metric names from
 * Lantern's Prometheus API and charts a rate; a dashboard panel holds a PromQL query.
 */
describe('PromQL mode', () => {
  const QUERY = 'sum by (host) (rate(shop_requests_total[5m]))';

  it('completes a metric name and charts sum by (host) (rate(...)) with a legend row per host', async () => {
    explainFailures('promql-explore');
    const explore = new MetricsExplorePage(page);
    await explore.goto(server.lantern.baseUrl, 1);
    await page.getByTestId('mode-promql').click();
    const editor = page.getByTestId('promql-editor').locator('.cm-content');
    await editor.click();
    await page.keyboard.type('shop_req');
    const option = page.locator('.cm-tooltip-autocomplete li').filter({ hasText: 'shop_requests_total' });
    await option.first().waitFor();
    await screenshot(page, 'promql-01-completion');
    await page.keyboard.press('Escape');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(QUERY);
    await page.keyboard.press('Escape'); // the operators offered after the last bracket
    await page.getByTestId('promql-run').click();
    const chart = page.getByTestId('promql-metric-chart');
    await expect
      .poll(() => chart.getByTestId('legend-name').allInnerTexts())
      .toEqual(HOSTS.map((h) => `{host="${h}"}`));
    // 30, 60 and 90 requests in the last five minutes: 0.1, 0.2 and 0.3 a second.
    await expect
      .poll(() => chart.getByTestId('legend-table').innerText())
      .toMatch(/web-1"}\s+0\.10[\s\S]*web-2"}\s+0\.20[\s\S]*web-3"}\s+0\.30/);
    await chart.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    expect(new URL(page.url()).searchParams.get('promql')).toBe(QUERY);
    await screenshot(page, 'promql-02-chart');
    // A query Prometheus would refuse shows the parser's message with its position.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('shop_requests_total +');
    await page.getByTestId('promql-run').click();
    await expect
      .poll(() => page.getByTestId('promql-error').innerText())
      .toMatch(/1:\d+: parse error: unexpected end of input/);
  });

  it('a dashboard panel holds a PromQL query and draws it', async () => {
    explainFailures('promql-panel');
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await grid.addVisualization('PromQL chart');
    const form = new DashFormDialog(page, 'promql-form');
    await form.root.waitFor();
    await form.root.getByTestId('promql-editor').locator('.cm-content').click();
    // Enter shows the query in the preview (the editor takes it; the dialog's form is not sent).
    await page.keyboard.type(QUERY);
    await page.keyboard.press('Enter');
    await form.preview.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await form.field('column-name').fill('Requests by host (PromQL)');
    await form.root.getByTestId('form-save').click();
    await form.root.waitFor({ state: 'detached' });
    const panel = grid.panels.filter({ hasText: 'Requests by host (PromQL)' });
    await panel.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await screenshot(page, 'promql-03-panel');
  });
});
