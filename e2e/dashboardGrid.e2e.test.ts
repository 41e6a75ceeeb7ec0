import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { DashFormDialog, DashGridPage } from '@lantern/testkit/pages/DashGridPage';
import { useLantern } from '@lantern/testkit/useLantern';
import { apiAs, createShopDashboard, HOSTS } from './shopDashboard';

/**
 * The dashboard Grid tab as a person uses it, against the real server with metrics sent by the
 * OpenTelemetry metrics SDK: panels added through the forms show data, drag and resize survive a
 * reload, a bad query breaks only its own panel, the dashboard filter narrows every panel, and
 * Monitor opens the prefilled monitor form.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

describe('dashboard grid', () => {
  let browser: BrowserLease;
  let page: Page;
  let grid: DashGridPage;
  let dashId: string;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    dashId = await createShopDashboard(server);
    browser = await leaseBrowser();
    const context = await signedInContext(browser, server.lantern.baseUrl, { viewport: { width: 1440, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    grid = new DashGridPage(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const explainFailures = () =>
    onTestFailed(async () => {
      console.error(
        `--- Lantern output ---\n${server.lantern.output().slice(-4000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      );
      await screenshot(page, 'dash-grid-failure', { always: true }).catch(() => undefined);
    });

  it('a panel with a bad query shows its error', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const broken = grid.panel('Broken panel');
    await broken.getByTestId('panel-error-icon').waitFor();
    await expect(broken.getByTestId('panel-error').innerText()).resolves.toContain(
      'counter instrument does not support avg',
    );
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
    // The frame every panel form shares: its title names a panel, and the Advanced grid query
    // template (used in a table row's dialog) is there for a heatmap as for a chart.
    await expect(form.root.locator('h6').first().innerText()).resolves.toBe('New heatmap panel');
    await form.root.getByText('Advanced').click();
    await form.field('panel-grid-query-template').fill('where host = ${host}');
    await screenshot(page, 'dash-grid-02-heatmap-form');
    await form.save();
    const show = await apiAs(server)<{ grid: { name: string; gridQueryTemplate: string }[] }>(
      'GET',
      `/api/v1/metrics/1/dashboards/${dashId}`,
    );
    expect(show.grid.find((c) => c.name === 'Latency heatmap')?.gridQueryTemplate).toBe('where host = ${host}');
    const panel = grid.panel('Latency heatmap');
    await panel.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await expect(panel.getByTestId('heatmap').getAttribute('data-empty')).resolves.toBeNull();
  });

  it('a chart charts its picked metric at once, with the default aggregation; a renamed alias follows in the query', async () => {
    explainFailures();
    await grid.addVisualization('Chart');
    const form = new DashFormDialog(page, 'chart-form');
    await form.root.waitFor();
    await form.field('metric-search').click();
    await page.getByTestId('metric-option').filter({ hasText: 'shop.latency' }).click();
    // No Aggregate click: the histogram starts with its average and its rate (reference MetricsPicker)
    // and the preview draws them.
    await expect
      .poll(() => form.root.getByTestId('query-part').allInnerTexts())
      .toEqual(['avg($latency)', 'per_min(count($latency))']);
    await form.preview.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await expect(form.root.innerText()).resolves.not.toContain('No query yet');
    await form.field('picked-metric-alias').fill('lat');
    await expect
      .poll(() => form.root.getByTestId('query-part').allInnerTexts())
      .toEqual(['avg($lat)', 'per_min(count($lat))']);
    await form.field('metric-search').click();
    await page.getByTestId('metric-option').filter({ hasText: 'shop.requests' }).click();
    await expect
      .poll(() => form.root.getByTestId('query-part').allInnerTexts())
      .toEqual(['avg($lat)', 'per_min(count($lat))', 'per_min($requests)']);
    // Both series are in the preview's legend.
    await expect.poll(() => form.preview.innerText()).toMatch(/\$lat[\s\S]*\$requests|\$requests[\s\S]*\$lat/);
    await screenshot(page, 'dash-grid-02b-chart-picked');
    // Removing a metric takes its part away.
    await form.root.getByRole('button', { name: 'Remove shop.latency' }).click();
    await expect.poll(() => form.root.getByTestId('query-part').allInnerTexts()).toEqual(['per_min($requests)']);
    await form.root.getByRole('button', { name: 'Cancel' }).click();
    await form.root.waitFor({ state: 'detached' });
  });

  it('drags and resizes a panel; the layout is kept after a reload', async () => {
    explainFailures();
    const heat = await grid.box('Latency heatmap');
    const broken = await grid.box('Broken panel');
    // The full-width heatmap narrows to about half the grid and gets a few rows shorter...
    // The layout's save is awaited from before the gesture: its answer can come before the gesture returns.
    const layoutSaved = () =>
      page.waitForResponse((r) => r.url().endsWith(`/dashboards/${dashId}/grid`) && r.request().method() === 'PUT');
    const resizeSaved = layoutSaved();
    await grid.resizePanel('Latency heatmap', -heat.width / 2, -60);
    await resizeSaved;
    const resized = await grid.box('Latency heatmap');
    expect(resized.width).toBeLessThan(heat.width * 0.6);
    expect(resized.height).toBeLessThan(heat.height - 40);
    // ...and the broken panel is dragged by its title into the free space on its right.
    const dragSaved = layoutSaved();
    await grid.dragPanel('Broken panel', resized.x + resized.width + 40 - broken.x, resized.y - broken.y);
    await dragSaved;
    const moved = await grid.box('Broken panel');
    // It left the first column for the right half (the panels around it re-pack upward).
    expect(moved.x).toBeGreaterThan(600);
    expect(moved.x).not.toBe(broken.x);
    const names = ['Broken panel', 'Latency heatmap', 'Requests by host', 'Requests by route'];
    const readLayout = async () => {
      const boxes: Record<string, unknown> = {};
      for (const n of names) boxes[n] = await grid.box(n);
      return boxes;
    };
    // Read once the grid has settled (the re-pack after the drop): two reads in a row alike.
    let layout = await readLayout();
    await expect
      .poll(async () => {
        const last = JSON.stringify(layout);
        layout = await readLayout();
        return JSON.stringify(layout) === last;
      })
      .toBe(true);
    await screenshot(page, 'dash-grid-03-layout');

    await page.reload();
    await grid.panel('Latency heatmap').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    expect(await readLayout()).toEqual(layout);
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

  it('chart, table and gauges show the data the SDK sent', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const chart = grid.panel('Requests by host');
    await chart.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    // List legend: one entry per host, each with its average (requests per minute bucket).
    const legend = (await chart.getByTestId('legend-item').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(legend.sort()).toEqual(HOSTS.map((h) => expect.stringContaining(`host=${h}`)));
    // Table: the counter summed per route (2 exports: /cart 10+20+30 twice, /pay 5+10+15 twice).
    const rows = grid.panel('Requests by route').getByTestId('table-panel-row');
    await rows.first().waitFor();
    const byRoute = Object.fromEntries((await rows.allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim())));
    expect(Object.keys(byRoute).sort()).toEqual(['/cart', '/pay']);
    expect(Number.parseFloat(byRoute['/cart'])).toBe(120);
    expect(Number.parseFloat(byRoute['/pay'])).toBe(60);
    // Gauges: the first value column of each.
    // Polled: on a busy machine a gauge may still be loading (its value empty) when the panels are drawn.
    await expect.poll(() => grid.gauge('All requests').getByTestId('gauge-value').innerText()).toMatch(/^180(\.0)?$/);
    await expect.poll(() => grid.gauge('web-1').getByTestId('gauge-value').innerText()).toMatch(/^30(\.0)?$/);
    await screenshot(page, 'dash-grid-05-data');
  });

  it('legend: hover emphasises, click isolates a series and click again shows all', async () => {
    explainFailures();
    const chart = grid.panel('Requests by host');
    const items = chart.getByTestId('legend-item');
    await chart.scrollIntoViewIfNeeded();
    await items.nth(1).hover();
    await items.nth(1).click();
    await expect(chart.getByTestId('grid-chart').getAttribute('data-series')).resolves.toBe('1');
    await expect(items.nth(0).getAttribute('data-hidden')).resolves.toBe('true');
    await items.nth(1).click();
    await expect(chart.getByTestId('grid-chart').getAttribute('data-series')).resolves.toBe('3');
  });

  it('edits a chart in its form: kind, legend and unit change the live preview, Save updates the panel, Cancel changes nothing', async () => {
    explainFailures();
    await grid.panelAction('Requests by host', 'Edit');
    const form = new DashFormDialog(page, 'chart-form');
    await form.preview.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    await expect(form.field('column-name').inputValue()).resolves.toBe('Requests by host');
    await expect(form.root.locator('h6').first().innerText()).resolves.toBe('Edit chart panel');
    await form.field('chart-kind').click();
    await page.getByRole('option', { name: 'Stacked bar' }).click();
    await form.field('legend-type').click();
    await page.getByRole('option', { name: 'Table' }).click();
    await form.root.getByLabel('Max').check();
    // The preview follows: a table legend with avg and max columns.
    await expect(form.preview.getByTestId('legend-table').locator('th').allInnerTexts()).resolves.toEqual([
      'metric',
      'avg',
      'max',
    ]);
    await form.field('column-unit').click();
    await page.getByRole('option', { name: 'kilobytes', exact: true }).click();
    await expect(form.preview.getByTestId('legend-table').innerText()).resolves.toMatch(/\d+(\.\d+)? KB/);
    await form.field('column-name').fill('Requests per host');
    await screenshot(page, 'dash-grid-06-chart-form');
    await form.save();
    const panel = grid.panel('Requests per host');
    await panel.getByTestId('legend-table').waitFor();
    await expect(panel.getByTestId('legend-row').count()).resolves.toBe(3);
    await expect(panel.getByTestId('legend-table').innerText()).resolves.toMatch(/ KB/);

    // Cancel leaves the panel as it was.
    await grid.panelAction('Requests per host', 'Edit');
    await form.field('column-name').fill('Something else');
    await form.root.getByRole('button', { name: 'Cancel' }).click();
    await form.root.waitFor({ state: 'detached' });
    await expect(grid.panel('Requests per host').count()).resolves.toBe(1);
    await expect(grid.panel('Something else').count()).resolves.toBe(0);
  });

  it('gauges: a template with ${column}, drag to reorder, kept after reload', async () => {
    explainFailures();
    await grid.gauge('web-1').getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = new DashFormDialog(page, 'gauge-form');
    await form.field('gauge-template').fill('${sum($req)} requests on web-1, ${nope} unknown');
    await expect(form.root.getByTestId('gauge-preview-value').innerText()).resolves.toMatch(
      /^30(\.0)? requests on web-1, - unknown$/,
    );
    await form.save();
    await expect(grid.gauge('web-1').getByTestId('gauge-value').innerText()).resolves.toMatch(/requests on web-1/);

    expect(await grid.gauges.evaluateAll((els) => els.map((e) => e.getAttribute('data-gauge-name')))).toEqual([
      'All requests',
      'web-1',
    ]);
    const reordered = page.waitForResponse(
      (r) => r.url().endsWith(`/dashboards/${dashId}/gauges`) && r.request().method() === 'PUT',
    );
    await grid.gauge('web-1').dragTo(grid.gauge('All requests'));
    await reordered;
    await page.reload();
    await grid.gauges.first().waitFor();
    expect(await grid.gauges.evaluateAll((els) => els.map((e) => e.getAttribute('data-gauge-name')))).toEqual([
      'web-1',
      'All requests',
    ]);
  });

  it('below 1000 px the panels stack in one column and a drag moves nothing', async () => {
    explainFailures();
    await page.setViewportSize({ width: 900, height: 1000 });
    try {
      await grid.goto(server.lantern.baseUrl, 1, dashId);
      await expect(page.getByTestId('grid-layout').getAttribute('data-cols')).resolves.toBe('1');
      await grid.panel('Latency heatmap').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
      const boxes = await Promise.all(['Broken panel', 'Latency heatmap', 'Requests by route'].map((n) => grid.box(n)));
      expect(new Set(boxes.map((b) => b.x))).toEqual(new Set([0]));
      const before = await grid.box('Broken panel');
      let saved = false;
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().endsWith(`/dashboards/${dashId}/grid`)) saved = true;
      });
      await grid.dragPanel('Broken panel', 0, 400);
      expect(await grid.box('Broken panel')).toEqual(before);
      expect(saved).toBe(false);
      await screenshot(page, 'dash-grid-07-narrow');
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it('duplicates a panel from its menu: the copy shows the same data right below it, and is kept', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await grid.panel('Requests by route').getByTestId('table-panel-row').first().waitFor();
    const count = await grid.panels.count();
    await grid.panelAction('Requests by route', 'Duplicate');
    await page.getByText('The panel "Requests by route" was duplicated').waitFor();
    const copy = grid.panel('Requests by route (copy)');
    const rows = copy.getByTestId('table-panel-row');
    await rows.first().waitFor();
    const texts = async (name: string) =>
      (await grid.panel(name).getByTestId('table-panel-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ')).sort();
    await expect(texts('Requests by route (copy)')).resolves.toEqual(await texts('Requests by route'));
    const [original, copied] = [await grid.box('Requests by route'), await grid.box('Requests by route (copy)')];
    expect(copied).toMatchObject({ x: original.x, width: original.width, height: original.height });
    expect(copied.y).toBeGreaterThanOrEqual(original.y + original.height);
    await copy.scrollIntoViewIfNeeded();
    await screenshot(page, 'dash-grid-08-duplicate');
    await page.reload();
    await grid.panel('Requests by route (copy)').getByTestId('table-panel-row').first().waitFor();
    await expect(grid.panels.count()).resolves.toBe(count + 1);
  });

  it('a gauge needs no description: cleared in its form, it saves and still shows its value', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await grid.gauge('All requests').getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = new DashFormDialog(page, 'gauge-form');
    await form.field('gauge-description').fill('');
    await screenshot(page, 'dash-grid-09-gauge-no-description');
    await form.save();
    await expect.poll(() => grid.gauge('All requests').getByTestId('gauge-value').innerText()).toMatch(/^180(\.0)?$/);
    await page.reload();
    await grid.gauge('All requests').getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(form.field('gauge-description').inputValue()).resolves.toBe('');
    await form.root.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a gauge as a dial with thresholds: the bands are drawn, and the value turns amber once a threshold passes below it', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    const card = grid.gauge('All requests');
    await card.getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = new DashFormDialog(page, 'gauge-form');
    await form.field('gauge-display-dial').click();
    await form.field('gauge-max').fill('300');
    // The first step starts at 80% of the dial (240), amber: 180 stays below it, in the gauge's own colour.
    await form.field('gauge-threshold-add').click();
    await expect(form.field('gauge-threshold-value-0').inputValue()).resolves.toBe('240');
    await form.field('gauge-threshold-add').click();
    await form.root.getByRole('group', { name: 'Threshold 2 colour' }).getByRole('button', { name: '#D32F2F' }).click();
    await form.field('gauge-threshold-value-1').fill('200');
    await expect(form.field('gauge-threshold-error').innerText()).resolves.toBe(
      'thresholds must go up, each above the last',
    );
    await form.field('gauge-threshold-value-1').fill('280');
    await expect(form.field('gauge-threshold-error').count()).resolves.toBe(0);
    await expect(form.field('gauge-preview').getAttribute('data-color')).resolves.toBe('#1976D2');
    await form.save();
    await card.locator('[data-testid="gauge-dial-chart"][data-drawn] canvas').waitFor();
    await expect.poll(() => card.getByTestId('gauge-value').innerText()).toMatch(/^180(\.0)?$/);
    await expect(card.getAttribute('data-color')).resolves.toBe('#1976D2');
    // The dial's canvas has its amber and red bands.
    const colours = () =>
      card.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const near = (r: number, g: number, b: number) => {
          let n = 0;
          for (let i = 0; i < d.length; i += 4)
            if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 30 && d[i + 3] > 200) n++;
          return n;
        };
        return { amber: near(245, 124, 0), red: near(211, 47, 47), blue: near(25, 118, 210) };
      });
    const before = await colours();
    expect(before.amber).toBeGreaterThan(20);
    expect(before.red).toBeGreaterThan(20);
    await screenshot(page, 'dash-grid-10-gauge-dial');

    // The amber step moved below the value: the value and the border turn amber, the amber band grows.
    await card.getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await form.field('gauge-threshold-value-0').fill('150');
    await expect(form.field('gauge-preview').getAttribute('data-color')).resolves.toBe('#F57C00');
    await screenshot(page, 'dash-grid-11-gauge-form-thresholds');
    await form.save();
    await expect.poll(() => card.getAttribute('data-color')).toBe('#F57C00');
    await expect(card.getByTestId('gauge-value').evaluate((e) => getComputedStyle(e).color)).resolves.toBe(
      'rgb(245, 124, 0)',
    );
    await card.locator('[data-testid="gauge-dial-chart"][data-drawn] canvas').waitFor();
    await expect.poll(async () => (await colours()).amber).toBeGreaterThan(before.amber);

    // As a stat after a reload: a big amber number.
    await page.reload();
    await card.getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(form.field('gauge-threshold-value-0').inputValue()).resolves.toBe('150');
    await form.field('gauge-display-stat').click();
    await form.save();
    await expect(card.getByTestId('gauge-dial').count()).resolves.toBe(0);
    await expect(card.getByTestId('gauge-value').evaluate((e) => getComputedStyle(e).color)).resolves.toBe(
      'rgb(245, 124, 0)',
    );
    await screenshot(page, 'dash-grid-12-gauge-stat');
  });
});
