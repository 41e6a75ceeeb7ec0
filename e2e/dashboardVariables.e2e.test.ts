import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '@lantern/testkit/pages/browser';
import { DashGridPage } from '@lantern/testkit/pages/DashGridPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { PROJECT1_TOKEN } from '@lantern/testkit/harness';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { useLantern } from '@lantern/testkit/useLantern';
import { apiAs, createShopDashboard, HOSTS } from './shopDashboard';

/**
 * Dashboard variables as a Grafana user reaches for them (issue 41): pickers above the grid, each
 * panel narrowed by the value picked (one, several, All), a grouping picked from a list, the
 * choice kept in the address across a reload, a monitor made from a panel with the values written
 * in, and a variable added through the editor. Requests per host: web-1 30, web-2 60, web-3 90.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

describe('dashboard variables', () => {
  let page: Page;
  let grid: DashGridPage;
  let dashId: string;

  const session = useSignedInPage(server, 'dash-vars', async () => {
    await createShopDashboard(server);
    const api = apiAs(server);
    const base = '/api/v1/metrics/1/dashboards';
    dashId = (await api<{ dashboard: { id: string } }>('POST', base, { name: 'Shop by host' })).dashboard.id;
    await api('PUT', `${base}/${dashId}`, {
      variables: [
        {
          name: 'host',
          label: 'Host',
          kind: 'attribute',
          metric: 'shop.requests',
          attr: 'host',
          multi: true,
          includeAll: true,
        },
        { name: 'group', label: 'Group by', kind: 'list', values: ['host', 'route'] },
      ],
    });
    const req = [{ name: 'shop.requests', alias: 'req' }];
    await api('POST', `${base}/${dashId}/grid`, {
      type: 'chart',
      name: 'Requests',
      params: { chartKind: 'line', metrics: req, query: 'sum($req) | where host in ($host) | group by $group' },
    });
    await api('POST', `${base}/${dashId}/grid`, {
      type: 'table',
      name: 'Requests by host',
      params: { metrics: req, query: 'sum($req) as requests | where host = $host | group by host' },
    });
    await api('POST', `${base}/${dashId}/gauges`, {
      dashKind: 'grid',
      name: 'Requests',
      metrics: req,
      query: 'sum($req) as requests | where host = $host',
    });
    await api('POST', `${base}/${dashId}/grid`, {
      type: 'promql',
      name: 'Hosts (PromQL)',
      params: { query: 'sum by (host) (shop_requests_total{host="$host"})' },
    });
    // Hosts by region (dependent variables): eu has web-1 and web-2, us has web-3.
    const dsn = `http://${PROJECT1_TOKEN}@127.0.0.1:${server.lantern.httpPort}/1`;
    const m = createTestMeter('http-proto', { httpUrl: server.lantern.baseUrl, grpcUrl: '', dsn, serviceName: 'shop' });
    const capacity = m.meter.createGauge('shop.capacity');
    for (const [region, host] of [
      ['eu', 'web-1'],
      ['eu', 'web-2'],
      ['us', 'web-3'],
    ])
      capacity.record(10, { region, host });
    await m.flush();
    await m.shutdown();
  });
  beforeAll(() => {
    page = session.page();
    grid = new DashGridPage(page);
  });
  const explainFailures = session.explainFailures;

  const picker = (name: string) => page.locator(`[data-testid="variable-picker"][data-variable="${name}"]`);
  /** The group of each series in the chart's legend (`sum($req{host=web-1})` -> `host=web-1`). */
  const legend = async () =>
    (await grid.panel('Requests').getByTestId('legend-item').allInnerTexts())
      .map((t) => /(?:host|route)=[^,})\s]+/.exec(t)?.[0] ?? t)
      .sort();
  const rows = async () =>
    (await grid.panel('Requests by host').getByTestId('table-panel-row').allInnerTexts()).map((t) =>
      t.replace(/\s+/g, ' ').trim(),
    );
  const gauge = () => grid.gauge('Requests').getByTestId('gauge-value').innerText();
  const promqlHosts = async () =>
    (await grid.panel('Hosts (PromQL)').getByTestId('legend-item').allInnerTexts())
      .map((t) => /web-\d/.exec(t)?.[0] ?? t)
      .sort();
  const pick = async (name: string, option: string) => {
    await picker(name).getByTestId('variable-input').click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('narrows every panel to the host picked, then to two, keeps them in the address, and groups by the list picked', async () => {
    explainFailures();
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    // All: every host, and the gauge sums them.
    await expect(picker('host').getByTestId('variable-input').inputValue()).resolves.toBe('');
    await expect(picker('host').innerText()).resolves.toContain('All');
    await expect(picker('group').getByTestId('variable-input').inputValue()).resolves.toBe('host');
    await expect.poll(legend).toEqual(HOSTS.map((h) => `host=${h}`));
    await expect.poll(rows).toHaveLength(3);
    await expect.poll(gauge).toMatch(/^180(\.0)?$/);
    await expect.poll(promqlHosts).toEqual(HOSTS);

    await pick('host', 'web-2');
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('var-host')).toEqual(['web-2']);
    await expect.poll(legend).toEqual(['host=web-2']);
    await expect.poll(rows).toEqual([expect.stringMatching(/^web-2 60(\.0)?$/)]);
    await expect.poll(gauge).toMatch(/^60(\.0)?$/);
    // The PromQL panel: `host="$host"` reads the pick as Grafana does.
    await expect.poll(promqlHosts).toEqual(['web-2']);

    await pick('host', 'web-3');
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('var-host')).toEqual(['web-2', 'web-3']);
    await expect.poll(legend).toEqual(['host=web-2', 'host=web-3']);
    await expect.poll(gauge).toMatch(/^150(\.0)?$/);
    // Two picks: the PromQL matcher becomes host=~"(web-2|web-3)".
    await expect.poll(promqlHosts).toEqual(['web-2', 'web-3']);
    // The table's filter is `host = $host`: two values become `in (...)`.
    await expect.poll(rows).toHaveLength(2);

    await pick('group', 'route');
    await expect.poll(() => new URL(page.url()).searchParams.get('var-group')).toBe('route');
    await expect.poll(legend).toEqual(['route=/cart', 'route=/pay']);
    await screenshot(page, 'dash-vars-01-picked');

    // The address holds the choice: a reload (or a shared link) shows the same.
    await page.reload();
    await expect.poll(legend).toEqual(['route=/cart', 'route=/pay']);
    await expect.poll(gauge).toMatch(/^150(\.0)?$/);
    await expect(picker('host').innerText()).resolves.toMatch(/web-2[\s\S]*web-3/);
  });

  it('a monitor made from a panel carries the picked values in its query', async () => {
    explainFailures();
    await grid.panelAction('Requests', 'Monitor');
    await page.waitForURL(/\/alerting\/1\/monitors\/new-metric\?/);
    expect(new URL(page.url()).searchParams.get('query')).toBe(
      'sum($req) | where host in (web-2, web-3) | group by route',
    );
    await page.goBack();
    await grid.panel('Requests').waitFor();
  });

  it('adds a list variable in the editor; its picker appears with its first value', async () => {
    explainFailures();
    await page.getByTestId('edit-variables').click();
    const dialog = page.getByTestId('variables-dialog');
    await expect(dialog.getByTestId('variable-row').count()).resolves.toBe(2);
    await dialog.getByTestId('add-variable').click();
    const row = dialog.getByTestId('variable-row').nth(2);
    await row.getByTestId('variable-name').fill('env');
    await row.getByTestId('variable-kind').locator('..').click();
    await page.getByRole('option', { name: 'A fixed list' }).click();
    await row.getByTestId('variable-values').fill('prod, staging');
    await row.getByTestId('variable-all').uncheck();
    await screenshot(page, 'dash-vars-02-editor');
    // A name used twice is refused with the server's message; the dialog stays.
    await row.getByTestId('variable-name').fill('host');
    await dialog.getByTestId('variables-save').click();
    await expect(dialog.getByTestId('variables-error').innerText()).resolves.toContain(
      'variable "host" is defined twice',
    );
    await row.getByTestId('variable-name').fill('env');
    await dialog.getByTestId('variables-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect(picker('env').getByTestId('variable-input').inputValue()).resolves.toBe('prod');
    const show = await apiAs(server)<{ dashboard: { variables: { name: string; values: string[] }[] } }>(
      'GET',
      `/api/v1/metrics/1/dashboards/${dashId}`,
    );
    expect(show.dashboard.variables.map((v) => [v.name, v.values])).toEqual([
      ['host', []],
      ['group', ['host', 'route']],
      ['env', ['prod', 'staging']],
    ]);
    expect(session.errors()).toEqual([]);
  });

  it("a variable's values follow the one before it: region eu offers web-1 and web-2, and us drops the web-2 picked", async () => {
    explainFailures();
    await page.getByTestId('edit-variables').click();
    const dialog = page.getByTestId('variables-dialog');
    const add = async (name: string, attr: string, filter: string) => {
      await dialog.getByTestId('add-variable').click();
      const row = dialog.getByTestId('variable-row').last();
      await row.getByTestId('variable-name').fill(name);
      await row.getByTestId('variable-metric').fill('shop.capacity');
      await row.getByTestId('variable-attr').fill(attr);
      await row.getByTestId('variable-filter').fill(filter);
      return row;
    };
    await (await add('region', 'region', '')).getByTestId('variable-all').uncheck();
    await add('server', 'host', 'where region = $region');
    await screenshot(page, 'dash-vars-03-dependent-editor');
    await dialog.getByTestId('variables-save').click();
    await dialog.waitFor({ state: 'detached' });

    const options = async (name: string) => {
      await picker(name).getByTestId('variable-input').click();
      const texts = await page.getByRole('option').allInnerTexts();
      await page.keyboard.press('Escape');
      return texts;
    };
    // region has no All: its first value, eu; server offers eu's hosts.
    await expect.poll(() => picker('region').getByTestId('variable-input').inputValue()).toBe('eu');
    await expect.poll(() => options('server')).toEqual(['All', 'web-1', 'web-2']);
    await pick('server', 'web-2');
    await expect.poll(() => new URL(page.url()).searchParams.get('var-server')).toBe('web-2');
    await screenshot(page, 'dash-vars-04-dependent-picked');

    // us: server's choices become web-3, and web-2 (not in us) is dropped back to All.
    await pick('region', 'us');
    await expect.poll(() => new URL(page.url()).searchParams.get('var-server')).toBe('$__all');
    await expect.poll(() => options('server')).toEqual(['All', 'web-3']);
    await expect(picker('server').getByTestId('variable-input').inputValue()).resolves.toBe('All');
    expect(session.errors()).toEqual([]);
  });

  it('the dashboards page: tags set in Edit dashboard, pinned first, search, a tag to narrow by, and a template from the gallery', async () => {
    explainFailures();
    // Tags are set in the Edit dashboard dialog (typed, Enter).
    await page.getByTestId('dashboard-menu').click();
    await page.getByRole('menuitem', { name: 'Edit dashboard' }).click();
    const tags = page.getByTestId('dashboard-tags-input');
    for (const t of ['shop', 'hosts']) {
      await tags.fill(t);
      await tags.press('Enter');
    }
    await page.getByTestId('dashboard-name-submit').click();
    await page.getByTestId('dashboard-name-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('dashboard-pin').click();
    await expect.poll(() => page.getByTestId('dashboard-pin').getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('all-dashboards').click();
    await page.waitForURL(/\/metrics\/1\/dashboards$/);
    const names = () =>
      page.getByTestId('dashboard-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-dashboard')));
    // Pinned first, then by name.
    await expect.poll(names).toEqual(['Shop by host', 'Shop']);
    await expect(
      page.getByTestId('dashboard-row').first().getByTestId('dashboard-tag').allInnerTexts(),
    ).resolves.toEqual(['shop', 'hosts']);
    await page.getByTestId('dashboard-search').fill('sho');
    await expect.poll(names).toEqual(['Shop by host', 'Shop']);
    await page.getByTestId('dashboard-search').fill('hosts');
    await expect.poll(names).toEqual(['Shop by host']);
    await page.getByTestId('dashboard-search').fill('');
    await page.getByTestId('tag-filter').filter({ hasText: 'shop' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tag')).toBe('shop');
    await expect.poll(names).toEqual(['Shop by host']);
    await screenshot(page, 'dash-list-01-tag');

    // New dashboard: the gallery, one line per template; a template's dashboard opens with its panels.
    await page.getByTestId('new-dashboard').click();
    const card = page.locator('[data-testid="template-card"][data-template="lantern.http.server"]');
    await expect(card.getByTestId('template-description').innerText()).resolves.toContain('latency percentiles');
    await screenshot(page, 'dash-list-02-gallery');
    await card.click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="HTTP: server"]').waitFor();
    await page.getByTestId('dash-tab-grid').click();
    await expect.poll(() => grid.panels.count()).toBe(3);
  });
});
