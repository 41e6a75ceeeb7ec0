import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_LOGIN } from './harness';
import { AggregationType, createTestMeter } from './otlpMetrics';
import { launchBrowser, screenshot } from './pages/browser';
import { DashFormDialog, DashGridPage } from './pages/DashGridPage';
import { LoginPage } from './pages/LoginPage';
import { useLantern } from './useLantern';

/**
 * The dashboard Grid tab as a person uses it, against the real server with metrics sent by the
 * OpenTelemetry metrics SDK: panels added through the forms show data, drag and resize survive a
 * reload, a bad query breaks only its own panel, the dashboard filter narrows every panel, and
 * Monitor opens the prefilled monitor form.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

const HOSTS = ['web-1', 'web-2', 'web-3'];

/** Requests per host and route (a counter) and request latency per host (a histogram), two exports. */
async function sendShopMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
    views: [{ instrumentName: 'shop.latency', aggregation: { type: AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: [5, 10, 25, 50, 100, 250, 500] } } }],
  });
  const requests = m.meter.createCounter('shop.requests', { description: 'Requests served', unit: '{request}' });
  const latency = m.meter.createHistogram('shop.latency', { description: 'Request latency', unit: 'ms' });
  for (let round = 0; round < 2; round++) {
    HOSTS.forEach((host, i) => {
      requests.add(10 * (i + 1), { host, route: '/cart' });
      requests.add(5 * (i + 1), { host, route: '/pay' });
      for (let v = 1; v <= 40; v++) latency.record(v * (i + 1) * 3, { host });
    });
    await m.flush();
  }
  await m.shutdown();
}

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.lantern.baseUrl}${path}`, {
    method,
    headers: { cookie: server.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data as T;
}

describe('dashboard grid', () => {
  let browser: Browser;
  let page: Page;
  let grid: DashGridPage;
  let dashId: string;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    await sendShopMetrics();
    // Wait until both metrics are queryable.
    for (let i = 0; i < 100; i++) {
      const list = await api<{ metrics: { name: string }[] }>('GET', '/api/v1/metrics/1');
      if (list.metrics.some((m) => m.name === 'shop.latency') && list.metrics.some((m) => m.name === 'shop.requests')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    dashId = (await api<{ dashboard: { id: string } }>('POST', '/api/v1/metrics/1/dashboards', { name: 'Shop' })).dashboard.id;
    // A panel whose query the server cannot run: a counter has no avg.
    await api('POST', `/api/v1/metrics/1/dashboards/${dashId}/grid`, {
      type: 'chart',
      name: 'Broken panel',
      params: { chartKind: 'line', metrics: [{ name: 'shop.requests', alias: 'req' }], query: 'avg($req)' },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    const login = new LoginPage(page);
    await login.goto(server.lantern.baseUrl);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\/\d+/);
    grid = new DashGridPage(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const explainFailures = () =>
    onTestFailed(async () => {
      console.error(`--- Lantern output ---\n${server.lantern.output().slice(-4000)}\n--- browser errors ---\n${browserErrors.join('\n')}`);
      await screenshot(page, 'dash-grid-failure').catch(() => undefined);
    });

  it('a panel with a bad query shows its error', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const broken = grid.panel('Broken panel');
    await broken.getByTestId('panel-error-icon').waitFor();
    await expect(broken.getByTestId('panel-error').innerText()).resolves.toContain('counter instrument does not support avg');
    await screenshot(page, 'dash-grid-01-broken');
  });

  it('adds a heatmap through its form: histogram metrics only, unit from the metric, live preview', async () => {
    explainFailures();
    await grid.addVisualization('Heatmap');
    const form = new DashFormDialog(page, 'heatmap-form');
    await form.root.waitFor();
    await expect(form.preview.innerText()).resolves.toContain('Select a metric first...');
    // Save without a metric or name: the form says what is missing and stays open.
    await form.root.getByTestId('form-save').click();
    await expect(form.root.innerText()).resolves.toContain('Select a histogram metric');
    await form.root.getByLabel('Histogram metric').click();
    const options = page.getByRole('option');
    await options.first().waitFor();
    await expect(options.allInnerTexts()).resolves.toEqual([expect.stringContaining('shop.latency')]);
    await options.first().click();
    await expect(form.field('heatmap-unit').innerText()).resolves.toContain('milliseconds');
    await form.preview.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await form.field('column-name').fill('Latency heatmap');
    await form.field('column-description').fill('Request latency by bucket');
    await screenshot(page, 'dash-grid-02-heatmap-form');
    await form.save();
    const panel = grid.panel('Latency heatmap');
    await panel.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await expect(panel.getByTestId('heatmap').getAttribute('data-empty')).resolves.toBeNull();
  });

  it('drags and resizes a panel; the layout is kept after a reload', async () => {
    explainFailures();
    const heat = await grid.box('Latency heatmap');
    const broken = await grid.box('Broken panel');
    // The full-width heatmap narrows to about half the grid and gets a few rows shorter...
    await grid.resizePanel('Latency heatmap', -heat.width / 2, -60);
    await page.waitForResponse((r) => r.url().endsWith(`/dashboards/${dashId}/grid`) && r.request().method() === 'PUT');
    const resized = await grid.box('Latency heatmap');
    expect(resized.width).toBeLessThan(heat.width * 0.6);
    expect(resized.height).toBeLessThan(heat.height - 40);
    // ...and the broken panel is dragged by its title into the free space on its right.
    await grid.dragPanel('Broken panel', resized.x + resized.width + 40 - broken.x, resized.y - broken.y);
    await page.waitForResponse((r) => r.url().endsWith(`/dashboards/${dashId}/grid`) && r.request().method() === 'PUT');
    const moved = await grid.box('Broken panel');
    const heatNow = await grid.box('Latency heatmap');
    // Side by side on one row: the heatmap half on the left, the broken panel on its right.
    expect(moved.x).toBeGreaterThan(heatNow.x + heatNow.width - 1);
    expect(Math.abs(moved.y - heatNow.y), JSON.stringify({ heat, broken, heatNow, moved })).toBeLessThan(5);
    const layout = { heatmap: heatNow, broken: moved };
    await screenshot(page, 'dash-grid-03-layout');

    await page.reload();
    await grid.panel('Latency heatmap').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    const after = { heatmap: await grid.box('Latency heatmap'), broken: await grid.box('Broken panel') };
    expect(after).toEqual(layout);
  });

  it('panel menu: view with its own range, copy as YAML, monitor with the prefill', async () => {
    explainFailures();
    await grid.panelAction('Latency heatmap', 'View');
    const view = page.getByTestId('panel-view-dialog');
    await view.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await screenshot(page, 'dash-grid-04-view');
    await view.getByLabel('Close').click();
    await view.waitFor({ state: 'detached' });

    await grid.panelAction('Broken panel', 'Copy as YAML');
    await page.getByText('The panel YAML was copied to the clipboard').waitFor();
    const yaml = await page.evaluate(() => navigator.clipboard.readText());
    expect(yaml).toContain('name: Broken panel');
    expect(yaml).toContain('- shop.requests as $req');
    expect(yaml).toContain('- avg($req)');

    await grid.panelAction('Broken panel', 'Monitor');
    await page.waitForURL(/\/alerting\/1\/monitors\/new-metric\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('name')).toBe('Broken panel');
    expect(url.searchParams.getAll('metric')).toEqual(['shop.requests']);
    expect(url.searchParams.getAll('alias')).toEqual(['req']);
    expect(url.searchParams.get('query')).toBe('avg($req)');
    expect(JSON.parse(url.searchParams.get('columns')!)).toEqual({});
    await page.goBack();
    await grid.root.waitFor();
  });
});
