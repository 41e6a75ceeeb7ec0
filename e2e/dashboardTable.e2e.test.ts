import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { useLantern } from '@lantern/testkit/useLantern';
import { apiAs, createShopDashboard } from './shopDashboard';

/**
 * A dashboard's Table tab and what it leads to, as a person uses them: ten rows a page, a grouping
 * toggle that ignores clicks while the table reloads, a row opening the grid narrowed to it (through
 * each panel's and gauge's grid query template when it has one) read-only in a dialog titled with the
 * dashboard and closed by its ✕, also for a row of a route (`/pay`, a value that needs quotes); the
 * tab kept when picking another dashboard; an old bookmark to a deleted dashboard; the View dialog's
 * legend showing long series names whole; and a panel's table legend sorted by its headers.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const api = apiAs(server);
const SKUS = Array.from({ length: 12 }, (_, i) => `sku-${String(i + 1).padStart(2, '0')}`);
const LONG_PAGE = '/store/catalogue/kitchen-and-dining/cookware/cast-iron-skillets-and-grill-pans/12-inch';
const base = (dashId: string) => `/api/v1/metrics/1/dashboards/${dashId}`;

/** Items sold per SKU (12 values) and page views per (long) page path. */
async function sendCatalogueMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
  });
  const items = m.meter.createCounter('shop.items', { description: 'Items sold' });
  const views = m.meter.createCounter('shop.views', { description: 'Page views' });
  SKUS.forEach((sku, i) => items.add(i + 1, { sku }));
  views.add(7, { page: LONG_PAGE });
  views.add(3, { page: '/' });
  await m.flush();
  await m.shutdown();
  for (let i = 0; i < 100; i++) {
    const { metrics } = await api<{ metrics: { name: string }[] }>('GET', '/api/v1/metrics/1');
    if (metrics.some((x) => x.name === 'shop.items') && metrics.some((x) => x.name === 'shop.views')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('catalogue metrics never listed');
}

async function createDashboard(name: string): Promise<string> {
  return (await api<{ dashboard: { id: string } }>('POST', '/api/v1/metrics/1/dashboards', { name })).dashboard.id;
}

describe('dashboard table', () => {
  let shopId: string;
  let itemsId: string;
  let tableOnlyId: string;
  const session = useSignedInPage(server, 'dash-table', async () => {
    shopId = await createShopDashboard(server);
    await sendCatalogueMetrics();
    const req = [{ name: 'shop.requests', alias: 'req' }];
    await api('PUT', `${base(shopId)}/table`, { tableMetrics: req, tableQuery: 'sum($req) | group by host' });
    // A panel whose metric needs the row's host and a route of its own: its template says so.
    await api('POST', `${base(shopId)}/grid`, {
      type: 'chart',
      name: 'Payments on this host',
      gridQueryTemplate: 'where route = "/pay" | where host = ${host}',
      params: { chartKind: 'line', metrics: req, query: 'sum($req)' },
    });

    itemsId = await createDashboard('Items');
    const items = [{ name: 'shop.items', alias: 'items' }];
    await api('PUT', `${base(itemsId)}/table`, { tableMetrics: items, tableQuery: 'sum($items) | group by sku' });
    // A table legend over 12 SKUs (9 a page): sold i items for sku-i, so the sorts are known.
    await api('POST', `${base(itemsId)}/grid`, {
      type: 'chart',
      name: 'Items by SKU',
      params: {
        chartKind: 'line',
        metrics: items,
        query: 'sum($items) | group by sku',
        legend: { type: 'table', placement: 'bottom', values: ['avg', 'max'] },
      },
      width: 12,
      height: 24,
    });
    // A table legend on the right with every value column.
    await api('POST', `${base(itemsId)}/grid`, {
      type: 'chart',
      name: 'Views, legend on the right',
      params: {
        chartKind: 'line',
        metrics: [{ name: 'shop.views', alias: 'views' }],
        query: 'sum($views) | group by page',
        legend: { type: 'table', placement: 'right', values: ['avg', 'last', 'min', 'max'] },
      },
      width: 12,
      height: 14,
    });
    await api('POST', `${base(itemsId)}/grid`, {
      type: 'chart',
      name: 'Views by page',
      params: {
        chartKind: 'line',
        metrics: [{ name: 'shop.views', alias: 'views' }],
        query: 'sum($views) | group by page',
      },
    });

    tableOnlyId = await createDashboard('Table only');
    await api('PUT', `${base(tableOnlyId)}/table`, { tableMetrics: items, tableQuery: 'sum($items)' });
  });
  const explainFailures = session.explainFailures;
  let page: Page;
  beforeAll(() => {
    page = session.page();
  });
  const open = (dashId: string, query = '') => page.goto(`${server.lantern.baseUrl}/metrics/1/${dashId}${query}`);
  /**
   * Picks a period in `picker`'s menu, as a person does: opens it, clicks the option and sees the
   * button say `shown`. A click that never reached the option is made again (the menu still open
   * on the old period): Playwright checks only the first pointer event's target, so on a loaded
   * machine the press and release can land on different elements while the dialog re-renders the
   * panels' answers, and the click reports done with nothing clicked (CI, 2026-11-27: the failure
   * screenshot showed the menu open on 1 hour 10 s after "Last 3 hours" was clicked).
   */
  const pickPeriod = async (picker: Locator, option: string, shown: string) => {
    const button = picker.getByTestId('period-picker');
    const item = page.getByTestId('period-option').filter({ hasText: option });
    await button.click();
    await item.click();
    await expect
      .poll(async () => {
        const text = await button.innerText();
        if (text !== shown && (await item.count()) === 1) await item.click({ timeout: 1000 }).catch(() => undefined);
        return text;
      })
      .toBe(shown);
  };
  const tabParam = () => new URL(page.url()).searchParams.get('tab');
  const selectedTab = () =>
    page.getByRole('tablist', { name: 'Dashboard view' }).locator('[aria-selected="true"]').getAttribute('data-testid');

  it('shows ten rows a page, with the pager', async () => {
    explainFailures();
    await open(itemsId);
    const rows = page.getByTestId('dash-table-row');
    // The first query of a fresh server can take a few seconds.
    await rows.nth(9).waitFor();
    await expect(rows.count()).resolves.toBe(10);
    await expect(page.getByTestId('pager-text').innerText()).resolves.toBe('1 - 10 of 12');
    await screenshot(page, 'dash-table-01-pager');
    await page.getByTestId('pager').getByRole('button', { name: 'Go to page 2' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await expect(page.getByTestId('pager-text').innerText()).resolves.toBe('11 - 12 of 12');
  });

  it('a row opens the grid narrowed to it: a panel with a grid query template uses it with the row value', async () => {
    explainFailures();
    const asked: string[] = [];
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/metrics/1/timeseries') asked.push(url.searchParams.get('query') ?? '');
    };
    await open(shopId, '?tab=table');
    const row = page.getByTestId('dash-table-row').filter({ hasText: 'web-2' });
    await row.waitFor();
    page.on('request', onRequest);
    try {
      await row.click();
      const dialog = page.getByTestId('table-row-dialog');
      const panel = dialog.locator('[data-testid="grid-panel"][data-panel-name="Payments on this host"]');
      await panel.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
      await dialog
        .locator('[data-testid="grid-panel"][data-panel-name="Requests by host"] [data-testid="echart"][data-ready]')
        .waitFor();
      // The template, filled with the row's host, replaces the row filter; other panels get the row filter.
      expect(asked).toContain('sum($req) | where route = "/pay" | where host = web-2');
      expect(asked).toContain('sum($req) | group by host | where host = web-2');
      expect(asked.filter((q) => q.startsWith('sum($req) | where host'))).toEqual([]);
      // The template's query runs: one series (web-2's payments), no error.
      await expect(panel.getByTestId('legend-item').allInnerTexts()).resolves.toEqual([
        expect.stringContaining('sum($req)'),
      ]);
      await expect(panel.getByTestId('panel-error-icon').count()).resolves.toBe(0);

      // Read-only: the query the panels get is shown as text, with no builder, Save or Add to click.
      await expect(dialog.getByTestId('grid-query-text').innerText()).resolves.toMatch(
        /^Query\s+where host = web-2\s+\(panels with a grid query template use it instead/,
      );
      for (const id of ['query-builder', 'grid-query-save', 'add-visualization', 'gauge-add'])
        await expect(dialog.getByTestId(id).count()).resolves.toBe(0);
      // A panel's form opened there (locked: no Save) previews the row's data, as the panel shows it.
      await dialog
        .locator('[data-testid="grid-panel"][data-panel-name="Requests by host"]')
        .getByTestId('panel-menu')
        .click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const form = page.getByTestId('chart-form');
      await form.getByTestId('form-preview').locator('[data-testid="echart"][data-ready]').waitFor();
      await expect
        .poll(() => form.getByTestId('form-preview').getByTestId('legend-item').allInnerTexts())
        .toEqual([expect.stringContaining('host=web-2')]);
      await expect(form.getByTestId('form-save').count()).resolves.toBe(0);
      await form.getByRole('button', { name: 'Close' }).click();
      await form.waitFor({ state: 'detached' });

      // The dialog says which dashboard and row it shows, and its ✕ closes it.
      await expect(dialog.getByTestId('table-row-title').innerText()).resolves.toMatch(/^Shop\s+web-2$/);
      await screenshot(page, 'dash-table-02-row-dialog');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      page.off('request', onRequest);
    }
  });

  it("a row's dialog has the dashboard page's Reload and period picker: they reload and re-range its panels", async () => {
    explainFailures();
    const asked: { query: string; gte: string; lt: string }[] = [];
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/metrics/1/timeseries')
        asked.push({
          query: url.searchParams.get('query') ?? '',
          gte: url.searchParams.get('time_gte') ?? '',
          lt: url.searchParams.get('time_lt') ?? '',
        });
    };
    await open(shopId, '?tab=table&time_dur=3600');
    const row = page.getByTestId('dash-table-row').filter({ hasText: 'web-2' });
    await row.click();
    const dialog = page.getByTestId('table-row-dialog');
    const chart = dialog.locator(
      '[data-testid="grid-panel"][data-panel-name="Requests by host"] [data-testid="echart"][data-ready]',
    );
    await chart.waitFor();
    const rowQuery = 'sum($req) | group by host | where host = web-2';
    page.on('request', onRequest);
    try {
      // Reload asks again for the panels' data.
      const picker = dialog.getByTestId('date-range-picker');
      await picker.getByTestId('date-reload').click();
      await expect.poll(() => asked.filter((a) => a.query === rowQuery).length).toBeGreaterThan(0);
      await chart.waitFor();

      // Another period: the panels ask for 3 hours, and the dialog says so.
      await pickPeriod(picker, 'Last 3 hours', '3 HOURS');
      await expect
        .poll(() => asked.some((a) => a.query === rowQuery && Date.parse(a.lt) - Date.parse(a.gte) === 3 * 3600_000))
        .toBe(true);
      await expect(picker.getByTestId('period-picker').innerText()).resolves.toBe('3 HOURS');
      await chart.waitFor();
      await screenshot(page, 'dash-table-02b-row-dialog-reload');
      // It is the page's range: still 3 hours once the dialog is closed.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect(page.getByTestId('dashboard-toolbar').getByTestId('period-picker').innerText()).resolves.toBe(
        '3 HOURS',
      );
      expect(new URL(page.url()).searchParams.get('time_dur')).toBe('10800');
    } finally {
      page.off('request', onRequest);
    }
  });

  it('shows the table loading, and the grouping toggle ignores a click meanwhile', async () => {
    explainFailures();
    await open(shopId, '?tab=table');
    await page.getByTestId('dash-table-row').first().waitFor();
    const slow = /\/api\/v1\/metrics\/1\/table\?/;
    await page.route(slow, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    });
    const chip = (key: string) => page.getByTestId('grouping-key').filter({ hasText: new RegExp(`^${key}$`) });
    const parts = () =>
      page.getByTestId('table-tab').getByTestId('query-part').locator('.MuiChip-label').allInnerTexts();
    try {
      await chip('route').click();
      await expect.poll(parts).toEqual(['sum($req)', 'group by host, route']);
      // The table is still loading, and says so: taking host out now is ignored.
      await page.getByTestId('table-loading').waitFor();
      await chip('host').click();
      await expect
        .poll(() => page.getByTestId('dash-table').locator('th').allInnerTexts(), { timeout: 10_000 })
        .toEqual(['host', 'route', 'sum($req)\ntotal over the range']);
      await page.getByTestId('table-loading').waitFor({ state: 'detached' });
      await expect(parts()).resolves.toEqual(['sum($req)', 'group by host, route']);
      await expect(chip('host').getAttribute('data-active')).resolves.toBe('true');
    } finally {
      await page.unroute(slow);
    }
    // Once loaded, the toggle works again.
    await chip('route').click();
    await expect.poll(parts).toEqual(['sum($req)', 'group by host']);
  });

  it('keeps the tab when picking another dashboard; a tab the dashboard lacks switches to the other', async () => {
    explainFailures();
    await open(shopId, '?tab=table');
    await page.getByTestId('dash-tab-grid').click();
    await page.getByTestId('grid-tab').waitFor();
    await page.getByTestId('dashboard-picker').click();
    await page
      .getByTestId('dashboard-option')
      .filter({ hasText: /^Items$/ })
      .click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Items"]').waitFor();
    await page.getByTestId('grid-tab').waitFor();
    await expect(selectedTab()).resolves.toBe('dash-tab-grid');
    expect(tabParam()).toBe('grid');

    // A dashboard with a table and no panels opens on its table, even from a link to its grid.
    await open(tableOnlyId, '?tab=grid');
    await page.getByTestId('table-tab').waitFor();
    await expect(selectedTab()).resolves.toBe('dash-tab-table');
    await expect.poll(tabParam).toBe('table');
    // Clicking Grid still opens its (empty) grid, to add the first panel.
    await page.getByTestId('dash-tab-grid').click();
    await page.getByTestId('grid-empty').waitFor();
    await expect(selectedTab()).resolves.toBe('dash-tab-grid');
  });

  it('an unknown or deleted dashboard goes on to the last opened one', async () => {
    explainFailures();
    await open(itemsId);
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Items"]').waitFor();
    await open('999999');
    await page.waitForURL(new RegExp(`/metrics/1/${itemsId}(\\?|$)`));
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Items"]').waitFor();
    await page.getByText('Dashboard not found').waitFor();
    await screenshot(page, 'dash-table-04-not-found');
    // Another project's dashboard (the server answers 403) is no dashboard of this project either.
    const otherId = (
      await api<{ dashboard: { id: string } }>('POST', '/api/v1/metrics/2/dashboards', { name: 'Elsewhere' })
    ).dashboard.id;
    await page.reload();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Items"]').waitFor();
    await open(otherId);
    await page.waitForURL(new RegExp(`/metrics/1/${itemsId}(\\?|$)`));
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Items"]').waitFor();
    await page.getByText('Dashboard not found').waitFor();
    await expect(page.getByText(/access denied/i).count()).resolves.toBe(0);
  });

  it("a gauge's column colour is picked in its form and colours the gauge's border", async () => {
    explainFailures();
    await open(shopId, '?tab=grid');
    const gauge = page.locator('[data-testid="gauge-card"][data-gauge-name="All requests"]');
    await gauge.getByTestId('gauge-value').waitFor();
    const border = () => gauge.evaluate((el) => getComputedStyle(el).borderBottomColor);
    await expect(border()).resolves.toBe('rgb(25, 118, 210)');
    await gauge.getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = page.getByTestId('gauge-form');
    const colours = form.getByRole('group', { name: 'Colour of sum($req)' });
    await colours.getByRole('button', { name: '#D32F2F' }).click();
    await expect(colours.getByRole('button', { name: '#D32F2F' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect
      .poll(() => form.getByTestId('gauge-preview').evaluate((el) => getComputedStyle(el).borderBottomColor))
      .toBe('rgb(211, 47, 47)');
    await screenshot(page, 'dash-04-gauge-colour-form');
    await form.getByTestId('form-save').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(border, { timeout: 10_000 }).toBe('rgb(211, 47, 47)');
    // Kept: the dashboard's YAML has it.
    const yaml = await (
      await fetch(`${server.lantern.baseUrl}${base(shopId)}/yaml`, { headers: { cookie: server.cookie } })
    ).text();
    expect(yaml).toMatch(/color: ['"]?#D32F2F/i);
  });

  it("the panel's View dialog shows long series names whole in its legend", async () => {
    explainFailures();
    await open(itemsId, '?tab=grid');
    const panel = page.locator('[data-testid="grid-panel"][data-panel-name="Views by page"]');
    await panel.locator('[data-testid="echart"][data-ready]').waitFor();
    // On the panel, the name is cut in the middle (40 characters).
    await expect(panel.getByTestId('legend-item').allInnerTexts()).resolves.not.toEqual(
      expect.arrayContaining([expect.stringContaining(LONG_PAGE)]),
    );
    await panel.getByTestId('panel-menu').click();
    await page.getByRole('menuitem', { name: 'View' }).click();
    const view = page.getByTestId('panel-view-dialog');
    await view.getByTestId('legend-name').first().waitFor();
    const names = await view.getByTestId('legend-name').allInnerTexts();
    expect(names.some((n) => n.includes(LONG_PAGE))).toBe(true);
    expect(names.some((n) => n.includes('...'))).toBe(false);
    await screenshot(page, 'dash-table-03-view-legend');
    await view.getByLabel('Close').click();
  });

  it("a grid gauge's own grid query template (typed in its form) narrows it in a row's dialog", async () => {
    explainFailures();
    await open(shopId, '?tab=grid');
    const gauge = page.locator('[data-testid="grid-tab"] [data-testid="gauge-card"][data-gauge-name="All requests"]');
    await gauge.getByTestId('gauge-value').waitFor();
    await gauge.getByTestId('gauge-menu').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const form = page.getByTestId('gauge-form');
    await form.getByRole('button', { name: 'Advanced' }).click();
    await form.getByTestId('gauge-grid-query-template').fill('where route = "/pay" | where host = ${host}');
    await screenshot(page, 'dash-table-05-gauge-template-form');
    await form.getByTestId('form-save').click();
    await form.waitFor({ state: 'detached' });
    // On the grid itself the template plays no part: all requests, 180.
    await expect.poll(() => gauge.getByTestId('gauge-value').innerText()).toMatch(/^180(\.0)?$/);

    const asked: string[] = [];
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/metrics/1/gauge') asked.push(url.searchParams.get('query') ?? '');
    };
    await page.getByTestId('dash-tab-table').click();
    const row = page.getByTestId('dash-table-row').filter({ hasText: 'web-2' });
    await row.waitFor();
    page.on('request', onRequest);
    try {
      await row.click();
      const dialog = page.getByTestId('table-row-dialog');
      const inRow = (name: string) =>
        dialog.locator(`[data-testid="gauge-card"][data-gauge-name="${name}"]`).getByTestId('gauge-value');
      // web-2's payments (10 a round, two rounds), not all of web-2's requests (60).
      await expect.poll(() => inRow('All requests').innerText()).toMatch(/^20(\.0)?$/);
      expect(asked).toContain('sum($req) | where route = "/pay" | where host = web-2');
      // A gauge without a template still gets the row filter.
      expect(asked).toContain('sum($req) | where host = web-1 | where host = web-2');
      await screenshot(page, 'dash-table-06-gauge-template-row');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      page.off('request', onRequest);
    }
  });

  it('a row whose value needs quotes (a route) opens its grid with data, not a query error', async () => {
    explainFailures();
    await open(shopId, '?tab=table');
    await page.getByTestId('dash-table-row').first().waitFor();
    // Group by host and route (not saved: the table's query builder edits this view only).
    await page
      .getByTestId('grouping-key')
      .filter({ hasText: /^route$/ })
      .click();
    await expect
      .poll(() => page.getByTestId('dash-table').locator('th').allInnerTexts())
      .toEqual(['host', 'route', 'sum($req)\ntotal over the range']);
    await page
      .getByTestId('dash-table-row')
      .filter({ hasText: /web-2\s*\/pay/ })
      .click();
    const dialog = page.getByTestId('table-row-dialog');
    const panel = dialog.locator('[data-testid="grid-panel"][data-panel-name="Requests by host"]');
    await panel.locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
    // web-2's series, and no error on any panel but the broken one (its counter has no avg).
    await expect(panel.getByTestId('legend-item').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('host=web-2'),
    ]);
    const errors = await dialog
      .locator('[data-testid="grid-panel"]')
      .filter({ has: page.getByTestId('panel-error-icon') })
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-panel-name')));
    expect(errors).toEqual(['Broken panel']);
    // The row's filter, as the dialog shows it: the route quoted.
    await expect(dialog.getByTestId('grid-query-text').innerText()).resolves.toMatch(
      /where host = web-2 \| where route = "\/pay"/,
    );
    await screenshot(page, 'dash-table-07-route-row');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("a panel's table legend keeps the server's order until a header is clicked: largest first, then smallest; the plot follows", async () => {
    explainFailures();
    await open(itemsId, '?tab=grid');
    const panel = page.locator('[data-testid="grid-panel"][data-panel-name="Items by SKU"]');
    await panel.locator('[data-testid="echart"][data-ready]').waitFor();
    const legend = panel.getByTestId('legend-table');
    const skus = async () =>
      (await legend.getByTestId('legend-name').allInnerTexts()).map((t) => /sku=(sku-\d+)/.exec(t)?.[1]);
    const dots = () =>
      legend
        .getByTestId('legend-name')
        .locator('span')
        .evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    // The first 9 of 12 in the order the server sent them; no column is sorted.
    await expect.poll(() => legend.getByTestId('legend-row').count()).toBe(9);
    const served = await skus();
    await expect(legend.locator('[aria-sort]').count()).resolves.toBe(0);
    const plotted = async () => {
      // The axis tooltip lists the plotted series in their order.
      const box = (await panel.locator('[data-testid="echart"]').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      const tip = page.locator('.chart-tooltip').last();
      await tip.waitFor();
      const names = (await tip.locator('tr').allInnerTexts()).map((t) => /sku=(sku-\d+)/.exec(t)?.[1]);
      await page.mouse.move(0, 0);
      return names;
    };
    await expect(plotted()).resolves.toEqual(served);

    // max, largest first: the first page (the one plotted) is sku-12 down to sku-04, coloured in that order.
    await legend.getByTestId('legend-sort-max').getByRole('button').click();
    const top = ['sku-12', 'sku-11', 'sku-10', 'sku-09', 'sku-08', 'sku-07', 'sku-06', 'sku-05', 'sku-04'];
    await expect.poll(skus).toEqual(top);
    await expect(legend.getByTestId('legend-sort-max').getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(panel.getByTestId('pager-text').innerText()).resolves.toBe('1 - 9 of 12');
    await expect(panel.getByTestId('grid-chart').getAttribute('data-series')).resolves.toBe('9');
    await expect(plotted()).resolves.toEqual(top);
    const palette = await dots();
    expect(new Set(palette).size).toBe(9);
    expect(palette[0]).toBe('rgb(84, 112, 198)');
    await screenshot(page, 'dash-table-08-legend-sorted');

    // Again: smallest first, the same palette from the top.
    await legend.getByTestId('legend-sort-max').getByRole('button').click();
    const bottom = ['sku-01', 'sku-02', 'sku-03', 'sku-04', 'sku-05', 'sku-06', 'sku-07', 'sku-08', 'sku-09'];
    await expect.poll(skus).toEqual(bottom);
    await expect(legend.getByTestId('legend-sort-max').getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(plotted()).resolves.toEqual(bottom);
    await expect(dots()).resolves.toEqual(palette);
  });

  it('a table legend on the right shows all its columns, without a sideways scroll', async () => {
    explainFailures();
    await open(itemsId, '?tab=grid');
    const panel = page.locator('[data-testid="grid-panel"][data-panel-name="Views, legend on the right"]');
    await panel.locator('[data-testid="echart"][data-ready]').waitFor();
    const legend = panel.getByTestId('legend-table');
    await expect(legend.locator('thead th').allInnerTexts()).resolves.toEqual(['metric', 'avg', 'last', 'min', 'max']);
    // The legend's box holds the whole table, and the plot keeps the larger part of the panel.
    const box = legend.locator('..');
    const [scroll, client] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
    const max = (await legend.getByTestId('legend-sort-max').boundingBox())!;
    const outer = (await panel.boundingBox())!;
    expect(max.x + max.width).toBeLessThanOrEqual(outer.x + outer.width);
    const plot = (await panel.locator('[data-testid="echart"]').boundingBox())!;
    expect(plot.width).toBeGreaterThanOrEqual(outer.width / 2 - 20);
    await screenshot(page, 'dash-table-10-legend-right');
  });

  it("'Edit table' opens with the grouping toggled on the tab, and once saved the tab shows what was saved", async () => {
    explainFailures();
    await open(shopId, '?tab=table');
    await page.getByTestId('dash-table-row').first().waitFor();
    const parts = (root: Locator) => root.getByTestId('query-part').locator('.MuiChip-label').allInnerTexts();
    const tab = page.getByTestId('table-tab');
    // An unsaved change on the tab: group by host and route too.
    await page
      .getByTestId('grouping-key')
      .filter({ hasText: /^route$/ })
      .click();
    await expect.poll(() => parts(tab)).toEqual(['sum($req)', 'group by host, route']);
    await page.getByTestId('table-loading').waitFor({ state: 'detached' });
    await page.getByTestId('edit-table').click();
    const form = page.getByTestId('dash-table-form');
    // The form starts from the table on screen, not from the saved query.
    await expect.poll(() => parts(form)).toEqual(['sum($req)', 'group by host, route']);
    await form.getByRole('button', { name: 'Edit', exact: true }).click();
    await form.getByTestId('query-raw').fill('sum($req) | group by route');
    await form.getByTestId('query-raw-apply').click();
    await screenshot(page, 'dash-table-09-edit-table');
    await form.getByTestId('form-save').click();
    await form.waitFor({ state: 'detached' });
    // The tab shows the saved table, with nothing left to save.
    await expect.poll(() => parts(tab)).toEqual(['sum($req)', 'group by route']);
    await expect
      .poll(() => page.getByTestId('dash-table').locator('th').allInnerTexts())
      .toEqual(['route', 'sum($req)\ntotal over the range']);
    await expect(page.getByTestId('table-query-save').count()).resolves.toBe(0);
    await page.reload();
    await expect.poll(() => parts(tab)).toEqual(['sum($req)', 'group by route']);
    // The Shop table as the other tests know it.
    await api('PUT', `${base(shopId)}/table`, {
      tableMetrics: [{ name: 'shop.requests', alias: 'req' }],
      tableQuery: 'sum($req) | group by host',
    });
  });
});
