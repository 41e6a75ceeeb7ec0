import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { MetricsExplorePage } from '@lantern/testkit/pages/MetricsExplorePage';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Metrics explore as a user meets it: the help card before any metrics, the Dashboards / Explore
 * tabs once the OpenTelemetry metrics SDK sent some, the attribute-key side list filtering the
 * metrics table, a metric opened in 'Explore metric' and charted grouped by an attribute, the
 * address restoring the dialog after a reload and the Back button after closing it, and the
 * Filters drawer narrowing the chart to checked attribute values.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const HOSTS = ['web-1', 'web-2', 'web-3'];

async function sendMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
  });
  const requests = m.meter.createCounter('shop.requests', { description: 'Requests served', unit: '{request}' });
  HOSTS.forEach((host, i) => requests.add(10 * (i + 1), { host, route: '/cart' }));
  const queue = m.meter.createGauge('shop.queue.size', { description: 'Jobs waiting' });
  queue.record(7, { queue: 'emails' });
  await m.flush();
  await m.shutdown();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
    const names = ((await res.json()) as { metrics: { name: string }[] }).metrics.map((x) => x.name);
    if (names.includes('shop.requests') && names.includes('shop.queue.size')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('metrics never listed');
}

/** Three more metrics for the search, the count and the Where dialog: 5 metrics in all. */
async function sendMoreMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
  });
  m.meter.createCounter('shop.orders', { description: 'Orders placed' }).add(4, { route: '/checkout' });
  m.meter
    .createHistogram('shop.latency', { description: 'Request latency', unit: 'ms' })
    .record(12, { route: '/cart' });
  const responses = m.meter.createCounter('shop.responses', { description: 'Responses by status' });
  for (const code of [200, 404, 503]) responses.add(code / 100, { 'http.status_code': code });
  await m.flush();
  await m.shutdown();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
    const names = ((await res.json()) as { metrics: { name: string }[] }).metrics.map((x) => x.name);
    if (['shop.orders', 'shop.latency', 'shop.responses'].every((n) => names.includes(n))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('metrics never listed');
}

describe('metrics explore', () => {
  let browser: BrowserLease;
  let page: Page;
  let explore: MetricsExplorePage;
  const browserErrors: string[] = [];
  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${server.lantern.output().slice(-5000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      ),
    );

  beforeAll(async () => {
    browser = await leaseBrowser();
    const context = await signedInContext(browser, server.lantern.baseUrl, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    explore = new MetricsExplorePage(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('links the help card to the playground, project 1', async () => {
    explainFailures();
    await page.goto(`${server.lantern.baseUrl}/metrics/2`);
    const help = page.getByTestId('metrics-help');
    await help.waitFor();
    const link = help.getByTestId('metrics-playground-link');
    await expect(link.getAttribute('href')).resolves.toBe('/metrics/1');
    await screenshot(page, 'expl-help-playground');
    await link.click();
    await page.waitForURL(/\/metrics\/1$/);
    // Project 1 has no metrics yet either: its own card does not link to itself.
    await help.waitFor();
    await expect(help.getByTestId('metrics-playground').count()).resolves.toBe(0);
  });

  it('shows the help card until metrics arrive, then the Dashboards and Explore tabs', async () => {
    explainFailures();
    await page.goto(`${server.lantern.baseUrl}/metrics/1/explore`);
    const help = page.getByTestId('metrics-help');
    await help.waitFor();
    await expect(help.getByText('Send metrics to the product', { exact: true }).count()).resolves.toBeGreaterThan(0);
    await expect(page.getByTestId('metrics-tab-explore').count()).resolves.toBe(0);

    await sendMetrics();
    await explore.goto(server.lantern.baseUrl, 1);
    await page.getByTestId('metrics-tab-dashboards').waitFor();
    await expect(page.getByTestId('metrics-tab-explore').getAttribute('aria-selected')).resolves.toBe('true');
  });

  it('filters the metrics table by attribute keys', async () => {
    explainFailures();
    // The busiest metric first: shop.requests has 3 timeseries (one per host), shop.queue.size 1.
    await expect(explore.metricNames(2)).resolves.toEqual(['shop.requests', 'shop.queue.size']);
    await expect(explore.sortedBy()).resolves.toBe('Timeseries descending');
    await screenshot(page, 'metrics-explore-00-default-sort');
    await expect(explore.rows.filter({ hasText: 'shop.requests' }).innerText()).resolves.toContain('Requests served');
    await expect(explore.rows.filter({ hasText: 'shop.requests' }).innerText()).resolves.toMatch(/counter\s+3/);
    // The pager shows only past 10 rows.
    await expect(page.getByTestId('metrics-pager').count()).resolves.toBe(0);

    await page.getByTestId('attr-key-search').fill('rou');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="attr-key"]').length === 1);
    await expect(explore.keyList.getByTestId('attr-key').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^route\s+1$/),
    ]);
    await explore.toggleKey('route');
    await expect(explore.metricNames(1)).resolves.toEqual(['shop.requests']);
    await page.waitForFunction(() => new URL(location.href).searchParams.getAll('attr_key').join() === 'route');
    await screenshot(page, 'metrics-explore-01-table');

    // Sorting is always on: a click on Timeseries reverses it, a click on Metric sorts by name.
    await explore.toggleKey('route');
    await expect.poll(() => explore.metricNames(2)).toEqual(['shop.requests', 'shop.queue.size']);
    await explore.sortBy('Timeseries');
    await expect.poll(() => explore.sortedBy()).toBe('Timeseries ascending');
    await expect.poll(() => explore.metricNames(2)).toEqual(['shop.queue.size', 'shop.requests']);
    await explore.sortBy('Timeseries');
    await expect.poll(() => explore.sortedBy()).toBe('Timeseries descending');
    await expect.poll(() => explore.metricNames(2)).toEqual(['shop.requests', 'shop.queue.size']);
    await explore.sortBy('Metric');
    await expect.poll(() => explore.sortedBy()).toBe('Metric ascending');
    await expect.poll(() => explore.metricNames(2)).toEqual(['shop.queue.size', 'shop.requests']);
    await explore.sortBy('Metric');
    await expect.poll(() => explore.sortedBy()).toBe('Metric descending');
    await expect.poll(() => explore.metricNames(2)).toEqual(['shop.requests', 'shop.queue.size']);
  });

  it('opens a metric and charts it grouped by an attribute', async () => {
    explainFailures();
    await explore.open('shop.requests');
    await expect(explore.dialog.getByTestId('picked-metric-alias').inputValue()).resolves.toBe('requests');
    await expect(explore.dialog.getByTestId('query-part').allInnerTexts()).resolves.toEqual(['per_min($requests)']);
    // The chart's legend comes with the query's answer.
    await expect.poll(() => explore.legendRows().count()).toBeGreaterThan(0);
    await explore.chart.getByTestId('legend-name').first().waitFor();

    await explore.dialog.getByTestId('add-group-by').click();
    await page.getByRole('menuitem', { name: 'host', exact: true }).click();
    await expect(explore.dialog.getByTestId('query-part').allInnerTexts()).resolves.toEqual([
      'per_min($requests)',
      'group by host',
    ]);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );
    const names = await explore.chart.getByTestId('legend-name').allInnerTexts();
    for (const host of HOSTS) expect(names.join('\n')).toContain(host);
    await explore.dialog.getByTestId('column-units').waitFor();
    await screenshot(page, 'metrics-explore-02-dialog');
    await explore.dialog.getByTestId('query-help').click();
    await expect(page.getByTestId('query-help-dialog').innerText()).resolves.toContain('group by host.name');
    await page.getByTestId('query-help-dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('query-help-dialog').waitFor({ state: 'detached' });

    // A bad query shows the server's message under its part.
    await explore.dialog.getByTestId('query-edit').click();
    await explore.dialog.getByTestId('query-raw').fill('per_min($requests) | group by host | bogus');
    await explore.dialog.getByTestId('query-raw').press('Enter');
    await explore.dialog.getByTestId('query-part-error').first().waitFor();
    await explore.dialog.getByTestId('query-edit').click();
    await explore.dialog.getByTestId('query-raw').fill('per_min($requests) | group by host');
    await explore.dialog.getByTestId('query-raw').press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );
  });

  it('restores the dialog from the address', async () => {
    explainFailures();
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('query') === 'per_min($requests) | group by host',
    );
    const url = page.url();
    expect(new URL(url).searchParams.getAll('metric')).toEqual(['shop.requests']);
    expect(new URL(url).searchParams.getAll('alias')).toEqual(['requests']);
    await page.goto(url);
    await explore.dialog.waitFor();
    await expect(explore.dialog.getByTestId('query-part').allInnerTexts()).resolves.toEqual([
      'per_min($requests)',
      'group by host',
    ]);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );

    await explore.dialog.getByTestId('explore-metric-close').click();
    await explore.dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('metric'));
  });
  it('goes back to the dialog with the browser Back button after closing it', async () => {
    explainFailures();
    await page.goBack();
    await explore.dialog.waitFor({ state: 'visible' });
    await expect(explore.dialog.getByTestId('query-part').allInnerTexts()).resolves.toEqual([
      'per_min($requests)',
      'group by host',
    ]);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );
  });

  it('keeps the page when the chart is drawn under a hovered legend row', async () => {
    explainFailures();
    const url = page.url();
    expect(new URL(url).searchParams.get('query')).toBe('per_min($requests) | group by host');
    // ECharts (its own chunk, loaded by the first chart) arrives only once the mouse rests on a
    // legend row, as on a slow link: the chart is then drawn with that row emphasised.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const chunk = /\/assets\/echartsCore-[^/]+\.js$/;
    await page.route(chunk, async (route) => {
      await released;
      await route.continue();
    });
    try {
      await page.goto(url);
      const row = explore.chart.getByTestId('legend-name').filter({ hasText: 'web-2' });
      await row.waitFor();
      await row.hover();
      release();
      await explore.chart.locator('[data-testid="echart"][data-drawn] canvas').first().waitFor();
      await expect(page.getByText('Something went wrong on this page').count()).resolves.toBe(0);
      await expect(explore.chart.getByTestId('legend-name').count()).resolves.toBe(3);
      await screenshot(page, 'metrics-explore-02b-hovered-legend');
    } finally {
      release();
      await page.unroute(chunk);
    }
  });

  it('makes a monitor and a dashboard panel of the query: Create monitor, Add to dashboard (issue 41)', async () => {
    explainFailures();
    const url = page.url();
    await explore.dialog.getByTestId('explore-create-monitor').click();
    await page.waitForURL(/\/alerting\/1\/monitors\/new-metric\?/);
    const prefill = new URL(page.url()).searchParams;
    expect(prefill.getAll('metric')).toEqual(['shop.requests']);
    expect(prefill.getAll('alias')).toEqual(['requests']);
    expect(prefill.get('query')).toBe('per_min($requests) | group by host');
    await expect
      .poll(() => page.getByTestId('query-part').allInnerTexts())
      .toEqual(['per_min($requests)', 'group by host']);
    await screenshot(page, 'metrics-explore-02c-monitor-prefilled');

    await page.goto(url);
    await explore.dialog.getByTestId('explore-add-to-dashboard').click();
    const add = page.getByTestId('add-to-dashboard-dialog');
    await add.getByRole('combobox').click();
    await page.getByRole('option', { name: 'New dashboard…' }).click();
    await add.getByTestId('add-to-dashboard-new-name').fill('From explore');
    await add.getByTestId('add-to-dashboard-panel-name').fill('Requests by host');
    await screenshot(page, 'metrics-explore-02d-add-to-dashboard');
    await add.getByTestId('add-to-dashboard-submit').click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="From explore"]').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('grid');
    const panel = page.locator('[data-testid="grid-panel"][data-panel-name="Requests by host"]');
    await expect.poll(() => panel.getByTestId('legend-item').count()).toBe(3);

    // Back in explore, the next one goes to the existing dashboard, picked first.
    await page.goto(url);
    await explore.dialog.getByTestId('explore-add-to-dashboard').click();
    // The list of dashboards loads after the dialog opens: the first one is picked once it is there.
    await expect.poll(() => add.getByRole('combobox').innerText()).toBe('From explore');
    await add.getByTestId('add-to-dashboard-panel-name').fill('Requests again');
    await add.getByTestId('add-to-dashboard-submit').click();
    await page.locator('[data-testid="grid-panel"][data-panel-name="Requests again"]').waitFor();
    await expect(page.getByTestId('grid-panel').count()).resolves.toBe(2);
    await page.goto(url);
    await explore.dialog.waitFor();
  });

  it('filters by attribute values in the Filters drawer: one value, then two', async () => {
    explainFailures();
    await explore.dialog.getByTestId('query-filters').click();
    const drawer = page.getByTestId('facet-drawer');
    // The few keys of shop.requests form one category; its first items open with their values and timeseries counts.
    const host = drawer.locator('[data-testid="facet-item"][data-attr="host"]');
    await expect
      .poll(() => host.getByTestId('facet-value').allInnerTexts())
      .toEqual(HOSTS.map((h) => expect.stringMatching(new RegExp(`^${h}\\s+1$`))));
    await screenshot(page, 'metrics-explore-04-filters');
    await host.getByTestId('facet-value').filter({ hasText: 'web-2' }).click();
    await expect
      .poll(() => explore.dialog.getByTestId('query-part').allInnerTexts())
      .toEqual(['per_min($requests)', 'group by host', 'where host = "web-2"']);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 1,
    );
    await host.getByTestId('facet-value').filter({ hasText: 'web-3' }).locator('input[type="checkbox"]').check();
    await expect
      .poll(() => explore.dialog.getByTestId('query-part').allInnerTexts())
      .toEqual(['per_min($requests)', 'group by host', 'where host in ("web-2", "web-3")']);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 2,
    );
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await explore.dialog.getByTestId('explore-metric-close').click();
    await explore.dialog.waitFor({ state: 'detached' });
  });

  it('takes an alias that starts with a digit, lower-cased, and charts the query that names it', async () => {
    explainFailures();
    await explore.open('shop.requests');
    await expect(explore.aliasHelper().innerText()).resolves.toBe('$requests');
    await explore.aliasInput().fill('a-b');
    await expect(explore.aliasHelper().innerText()).resolves.toBe('Only letters and numbers are allowed');
    await explore.aliasInput().fill('5XX');
    await expect(explore.aliasInput().inputValue()).resolves.toBe('5xx');
    await expect(explore.aliasHelper().innerText()).resolves.toBe('$5xx');
    // The rename is written into the query (a bad alias on the way was not).
    await expect.poll(() => explore.dialog.getByTestId('query-part').allInnerTexts()).toEqual(['per_min($5xx)']);
    await explore.editQuery('per_min($5xx) | group by host');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );
    await expect(explore.dialog.getByTestId('query-part-error').count()).resolves.toBe(0);
    await expect(explore.chart.getByTestId('legend-name').first().innerText()).resolves.toContain('$5xx');
    await screenshot(page, 'metrics-explore-05-digit-alias');
    await explore.dialog.getByTestId('explore-metric-close').click();
    await explore.dialog.waitFor({ state: 'detached' });
  });

  it('searches metric names, asking the server once typing pauses, and counts the metrics', async () => {
    explainFailures();
    await sendMoreMetrics();
    await explore.goto(server.lantern.baseUrl, 1);
    await explore.metricNames(5);
    await expect(page.getByTestId('metrics-count').innerText()).resolves.toBe('5 metrics');

    const asked = page.waitForRequest((r) => new URL(r.url()).searchParams.get('search_input') === 'orders');
    await page.getByTestId('metric-search').fill('orders');
    await expect(explore.metricNames(1)).resolves.toEqual(['shop.orders']);
    await expect(page.getByTestId('metrics-count').innerText()).resolves.toBe('1 metric');
    await asked;
    await page.waitForFunction(() => new URL(location.href).searchParams.get('search') === 'orders');
    await screenshot(page, 'expl-search');

    // The address keeps the search: a reload shows the same field and row.
    await page.reload();
    await expect(explore.metricNames(1)).resolves.toEqual(['shop.orders']);
    await expect(page.getByTestId('metric-search').inputValue()).resolves.toBe('orders');
    await page.getByTestId('metric-search').fill('');
    await explore.metricNames(5);
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('search'));

    // More metrics than the server lists: 'more than'.
    await page.route('**/api/v1/metrics/1/stats?**', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), hasMore: true } });
    });
    await page.reload();
    await expect.poll(() => page.getByTestId('metrics-count').innerText()).toBe('more than 5 metrics');
    await screenshot(page, 'expl-more-than');
    await page.unroute('**/api/v1/metrics/1/stats?**');
  });

  it('filters by a numeric comparison in the Where dialog, through the metrics engine', async () => {
    explainFailures();
    await explore.goto(server.lantern.baseUrl, 1);
    await explore.open('shop.responses');
    await explore.dialog.getByTestId('add-group-by').click();
    await page.getByRole('menuitem', { name: 'http.status_code', exact: true }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 3,
    );

    await explore.dialog.getByTestId('add-where').click();
    const where = page.getByTestId('where-dialog');
    await where.getByTestId('where-key').fill('status');
    await page.getByRole('option', { name: 'http.status_code', exact: true }).click();
    await expect(where.getByTestId('where-key').inputValue()).resolves.toBe('http.status_code');
    await where.getByLabel('Operator').click();
    const ops = await page
      .getByTestId('where-op-option')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-op')));
    expect(ops).toEqual(expect.arrayContaining(['=', '!=', '<', '<=', '>', '>=', 'like', 'not like', 'exists']));
    expect(ops).not.toContain('contains');
    await page.locator('[data-testid="where-op-option"][data-op="like"]').click();
    await expect(where.innerText()).resolves.toContain('"%" matches zero or more characters');

    await where.getByLabel('Operator').click();
    await page.locator('[data-testid="where-op-option"][data-op="exists"]').click();
    await expect(where.getByTestId('where-value').isDisabled()).resolves.toBe(true);

    await where.getByLabel('Operator').click();
    await page.locator('[data-testid="where-op-option"][data-op=">="]').click();
    await where.getByTestId('where-value').fill('five hundred');
    await expect(where.innerText()).resolves.toContain('Enter a number');
    await expect(where.getByTestId('where-add').isDisabled()).resolves.toBe(true);
    await where.getByTestId('where-value').fill('500');
    await screenshot(page, 'expl-where-dialog');
    await where.getByTestId('where-add').click();
    await where.waitFor({ state: 'detached' });

    await expect(explore.dialog.getByTestId('query-part').allInnerTexts()).resolves.toEqual([
      'per_min($responses)',
      'group by http.status_code',
      'where http.status_code >= 500',
    ]);
    // The server runs it: one series left, 503, and no error under the part.
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="explore-metric-chart"] [data-testid="legend-name"]').length === 1,
    );
    await expect(explore.chart.getByTestId('legend-name').innerText()).resolves.toContain('503');
    await expect(explore.dialog.getByTestId('query-part-error').count()).resolves.toBe(0);
    await screenshot(page, 'expl-where-result');
    await explore.dialog.getByTestId('explore-metric-close').click();
    await explore.dialog.waitFor({ state: 'detached' });
  });

  it('keeps every section reachable in the top bar at 800 px', async () => {
    explainFailures();
    await page.setViewportSize({ width: 800, height: 900 });
    await explore.goto(server.lantern.baseUrl, 1);
    const menu = page.getByTestId('nav-menu');
    await expect(menu.innerText()).resolves.toBe('Metrics');
    await expect(page.getByTestId('app-search').isVisible()).resolves.toBe(true);
    // Nothing in the bar is pushed off the screen.
    await expect(
      page.evaluate(() => document.querySelector('[data-testid="top-bar"]')!.scrollWidth <= window.innerWidth),
    ).resolves.toBe(true);
    await menu.click();
    await expect(page.getByRole('menuitem').allInnerTexts()).resolves.toEqual([
      'Overview',
      'Traces & Logs',
      'Metrics',
      'Alerts',
    ]);
    await screenshot(page, 'metrics-explore-03-narrow-menu', { fullPage: false });
    await page.getByTestId('nav-menu-alerting').click();
    await page.waitForURL(/\/alerting\/1/);
    await page.waitForFunction(() => document.querySelector('[data-testid="nav-menu"]')?.textContent === 'Alerts');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('nav-metrics').waitFor();
  });
});
