import type { ConsoleMessage, Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { sendTracingData } from '@lantern/testkit/tracingData';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The Metrics section as a new user meets it: the help card before any metrics, then (after the
 * OpenTelemetry metrics SDK sent some) a first dashboard made through the new-dashboard form, its
 * table set up with the metric picker and the query builder, search and the row dialog, rename,
 * pin, clone and delete from the menu, and the YAML tab with an error shown at its line.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
const HOSTS = ['web-1', 'web-2', 'web-3'];

async function sendShopMetrics(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'shop',
  });
  const requests = m.meter.createCounter('shop.requests', { description: 'Requests served', unit: '{request}' });
  HOSTS.forEach((host, i) => requests.add(10 * (i + 1), { host, route: '/cart' }));
  await m.flush();
  await m.shutdown();
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
    if (((await res.json()) as { metrics: { name: string }[] }).metrics.some((x) => x.name === 'shop.requests')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('shop.requests never listed');
}

describe('metrics dashboards', () => {
  const session = useSignedInPage(server, 'dashboards');
  const explainFailures = session.explainFailures;
  let page: Page;
  beforeAll(() => {
    page = session.page();
  });
  const open = (path: string) => page.goto(`${server.lantern.baseUrl}${path}`);

  it('shows how to send metrics while there are none', async () => {
    explainFailures();
    await open('/metrics/1');
    const help = page.getByTestId('metrics-help');
    await help.waitFor();
    for (const heading of [
      'Send metrics to the product',
      'In-app metrics',
      'Infrastructure metrics',
      'Supported software',
    ])
      await expect(help.getByText(heading, { exact: true }).count()).resolves.toBeGreaterThan(0);
    await expect(page.getByTestId('help-remote-write').innerText()).resolves.toContain('/api/v1/prometheus/write');
    await expect(page.getByTestId('help-infra-collector').innerText()).resolves.toContain('hostmetrics');
    await screenshot(page, 'dashboards-01-help');
  });

  it('creates the first dashboard and sets up its table with the picker and the query builder', async () => {
    explainFailures();
    await sendShopMetrics();
    await open('/metrics/1');
    await page.getByTestId('metrics-tab-dashboards').waitFor();
    await page.getByTestId('new-dashboard-name').fill('Shop');
    await page.getByTestId('new-dashboard-create').click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Shop"]').waitFor();
    await page.getByTestId('table-not-configured').waitFor();

    await page.getByTestId('edit-table').click();
    const form = page.getByTestId('dash-table-form');
    await form.getByTestId('metric-search').click();
    await page.getByTestId('metric-option').filter({ hasText: 'shop.requests' }).click();
    await expect(form.getByTestId('picked-metric-alias').inputValue()).resolves.toBe('requests');
    // The picked counter starts with its rate (reference frontend §1.3.13), and the table already shows it.
    await expect.poll(() => form.getByTestId('query-part').allInnerTexts()).toEqual(['per_min($requests)']);
    await form.getByTestId('table-panel-row').first().waitFor();
    await form
      .getByTestId('query-part')
      .filter({ hasText: 'per_min($requests)' })
      .locator('.MuiChip-deleteIcon')
      .click();
    await form.getByTestId('add-aggregation').click();
    await page.getByRole('menuitem', { name: 'per_min($requests)' }).waitFor();
    await page.getByRole('menuitem', { name: 'sum($requests)' }).click();
    await form.getByTestId('add-group-by').click();
    await page.getByRole('menuitem', { name: 'host', exact: true }).click();
    await expect(form.getByTestId('query-part').allInnerTexts()).resolves.toEqual(['sum($requests)', 'group by host']);
    await form.getByTestId('table-panel-row').nth(2).waitFor();
    await screenshot(page, 'dashboards-02-edit-table');
    await form.getByTestId('form-save').click();
    await form.waitFor({ state: 'detached' });

    const rows = page.getByTestId('dash-table-row');
    await rows.nth(2).waitFor();
    await expect(rows.allInnerTexts()).resolves.toEqual(expect.arrayContaining([expect.stringContaining('web-3')]));
    await page.getByTestId('table-search').fill('web-2');
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().innerText()).resolves.toMatch(/web-2\s+20/);
    await page.getByTestId('table-search').fill('');
    // The grouping toggle adds route to the group by; Save keeps it.
    await page.getByTestId('grouping-key').filter({ hasText: 'route' }).click();
    await expect
      .poll(() => page.getByTestId('table-tab').getByTestId('query-part').locator('.MuiChip-label').allInnerTexts())
      .toEqual(['sum($requests)', 'group by host, route']);
    await expect
      .poll(() => page.getByTestId('dash-table').locator('th').allInnerTexts())
      .toEqual(['host', 'route', 'sum($requests)\ntotal over the range']);
    await page.getByTestId('table-query-save').click();
    await page.getByTestId('table-query-save').waitFor({ state: 'detached' });
    await screenshot(page, 'dashboards-03-table');
  });

  it('renames, pins, clones and deletes from the menu; the picker lists pinned first', async () => {
    explainFailures();
    await page.getByTestId('dashboard-menu').click();
    await page.getByRole('menuitem', { name: 'Edit dashboard' }).click();
    await page.getByTestId('dashboard-name-input').fill('Shop overview');
    await page.getByTestId('dashboard-name-submit').click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Shop overview"]').waitFor();

    await page.getByTestId('dashboard-menu').click();
    await page.getByRole('menuitem', { name: 'Clone dashboard' }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="dashboard-page"]')?.getAttribute('data-dashboard') !== 'Shop overview',
    );
    const cloneName = await page.getByTestId('dashboard-page').getAttribute('data-dashboard');
    expect(cloneName).toContain('Shop overview');
    await page.getByTestId('dashboard-pin').click();
    await expect.poll(() => page.getByTestId('dashboard-pin').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('dashboard-picker').click();
    const options = page.getByTestId('dashboard-option');
    await expect.poll(() => options.count()).toBe(2);
    await expect(options.first().innerText()).resolves.toBe(cloneName);
    await expect(options.first().getByTestId('dashboard-option-pin').count()).resolves.toBe(1);
    await page.keyboard.press('Escape');

    // Deleting asks for nothing that is gone: no 404, no error in the console.
    const consoleErrors: string[] = [];
    const missing: string[] = [];
    const onConsole = (m: ConsoleMessage) => void (m.type() === 'error' && consoleErrors.push(m.text()));
    const onResponse = (r: Response) => void (r.status() === 404 && missing.push(r.url()));
    page.on('console', onConsole);
    page.on('response', onResponse);
    await page.getByTestId('dashboard-menu').click();
    await page.getByRole('menuitem', { name: 'Delete dashboard' }).click();
    await expect(page.getByTestId('confirm-title').innerText()).resolves.toBe('Delete dashboard');
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Shop overview"]').waitFor();
    await page.waitForLoadState('networkidle');
    page.off('console', onConsole);
    page.off('response', onResponse);
    expect(missing).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The dashboard was deleted on purpose: no "not found" on the way to the other one.
    await expect(page.getByText('Dashboard not found').count()).resolves.toBe(0);
    await expect(page.getByTestId('dashboard-picker').inputValue()).resolves.toBe('Shop overview');
    // The one shown now is the one remembered: the dashboards link opens it, not the deleted one.
    await open('/metrics/1');
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Shop overview"]').waitFor();
    await expect(page.getByText('Dashboard not found').count()).resolves.toBe(0);
  });

  it('edits the dashboard as YAML: an unknown key is shown at its line and nothing changes; valid YAML saves', async () => {
    explainFailures();
    await page.getByTestId('dash-tab-yaml').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('yaml');
    const editor = page.locator('[data-testid="yaml-editor"] .cm-content');
    await editor.waitFor();
    await expect(editor.innerText()).resolves.toContain('name: Shop overview');
    // Rename through YAML, with a typo'd key on the way.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\ncolour: red');
    await page.getByTestId('yaml-save-top').click();
    const errors = page.getByTestId('yaml-errors');
    await errors.waitFor();
    await expect(errors.innerText()).resolves.toMatch(/Line \d+: colour: unknown key/);
    await page.locator('.cm-lintRange-error').first().waitFor();
    await screenshot(page, 'dashboards-04-yaml-error');

    const text = await editor.innerText();
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(
      text.replace(/\n+colour: red\s*$/, '\n').replace('name: Shop overview', 'name: Shop from YAML'),
    );
    await page.getByTestId('yaml-save-bottom').click();
    await page.getByText('The dashboard has beed successfully updated from the YAML').waitFor();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Shop from YAML"]').waitFor();
    await expect(page.getByTestId('yaml-download').getAttribute('href')).resolves.toMatch(/\/yaml$/);

    // The address restores the tab.
    await page.reload();
    await page.getByTestId('yaml-tab').waitFor();

    // A YAML file makes a new dashboard; a file that is not one is refused with the reason.
    const exported = await page.locator('[data-testid="yaml-editor"] .cm-content').innerText();
    await page.getByTestId('import-yaml-file').setInputFiles({
      name: 'shop.yaml',
      mimeType: 'text/yaml',
      buffer: Buffer.from(exported.replace('name: Shop from YAML', 'name: Imported shop')),
    });
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Imported shop"]').waitFor();
    await page
      .getByTestId('import-yaml-file')
      .setInputFiles({ name: 'notes.yaml', mimeType: 'text/yaml', buffer: Buffer.from('shopping:\n  - milk\n') });
    await page.getByText('notes.yaml is not a dashboard').waitFor();
    await expect(page.getByTestId('dashboard-page').getAttribute('data-dashboard')).resolves.toBe('Imported shop');
  });

  it('YAML: a panel query that would not run is refused at its line, the old success message goes; a syntax error is listed at its line; Download is a relative link', async () => {
    explainFailures();
    await page.getByTestId('dash-tab-yaml').click();
    const editor = page.locator('[data-testid="yaml-editor"] .cm-content');
    await editor.waitFor();
    const original = await editor.innerText();
    const replaceAll = async (text: string) => {
      await editor.click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(text);
    };
    // Saved as it is: the success message shows.
    await page.getByTestId('yaml-save-top').click();
    const snackbar = page.getByTestId('snackbar');
    await snackbar.filter({ hasText: 'successfully updated' }).waitFor();

    // A panel averaging a counter: the panel would only show an error, so the save is refused.
    const panel = [
      '  - name: Average requests',
      '    type: chart',
      '    metrics:',
      '      - shop.requests as $req',
      '    query:',
      '      - group by host',
      '      - avg($req)',
    ].join('\n');
    const broken = `${original.trimEnd()}\n${/^grid:/m.test(original) ? '' : 'grid:\n'}${panel}\n`;
    const line = broken.split('\n').indexOf('      - avg($req)') + 1;
    await replaceAll(broken);
    await page.getByTestId('yaml-save-top').click();
    const errors = page.getByTestId('yaml-errors');
    await errors.waitFor();
    await expect(errors.innerText()).resolves.toMatch(
      new RegExp(
        `^Line ${line}: grid\\[\\d+\\]\\.query\\[1\\]: panel "Average requests": avg\\(\\$req\\): counter instrument does not support avg$`,
      ),
    );
    await snackbar.waitFor({ state: 'hidden' });
    await page.locator('.cm-lintRange-error').first().waitFor();
    await screenshot(page, 'dashboards-05-yaml-query-error');
    // Nothing changed on the server.
    await page.reload();
    await editor.waitFor();
    await expect(editor.innerText()).resolves.not.toContain('Average requests');

    // A syntax error: listed at its own line, without asking the server.
    const puts: string[] = [];
    page.on('request', (r) => void (r.method() === 'PUT' && r.url().endsWith('/yaml') && puts.push(r.url())));
    const lines = original.trimEnd().split('\n');
    const syntax = [...lines.slice(0, 3), 'bad: [unclosed', ...lines.slice(3)].join('\n');
    await replaceAll(syntax);
    await page.getByTestId('yaml-save-bottom').click();
    await expect(errors.innerText()).resolves.toMatch(/^Line (4|5):/);
    expect(puts).toEqual([]);
    await screenshot(page, 'dashboards-06-yaml-syntax-error');

    // Download stays on the host the app was opened from.
    const href = await page.getByTestId('yaml-download').getAttribute('href');
    expect(href).toMatch(/^\/api\/v1\/metrics\/1\/dashboards\/\d+\/yaml$/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('yaml-download').click()]);
    expect(download.suggestedFilename()).toMatch(/\.yaml$/);
  });

  it('offers the built-in Services dashboard once spans arrive, and opens it with one row per service', async () => {
    explainFailures();
    await sendTracingData(server.lantern.baseUrl, server.dsn);
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1/dashboards`, {
        headers: { cookie: server.cookie },
      });
      if (((await res.json()) as { dashboards: { name: string }[] }).dashboards.some((d) => d.name === 'Services'))
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.getByTestId('dashboard-picker').click();
    await page
      .getByTestId('dashboard-option')
      .filter({ hasText: /^Services$/ })
      .click();
    await page.locator('[data-testid="dashboard-page"][data-dashboard="Services"]').waitFor();
    await page.getByTestId('dash-tab-table').click();
    const rows = page.getByTestId('dash-table-row');
    await rows.nth(1).waitFor();
    await expect(page.getByTestId('dash-table').locator('th').first().innerText()).resolves.toBe('service.name');
    await screenshot(page, 'dashboards-05-template');

    // A row opens the dashboard's grid narrowed to that service.
    const service = (await rows.first().locator('td').first().innerText()).trim();
    await rows.first().click();
    const dialog = page.getByTestId('table-row-dialog');
    await expect(dialog.getByTestId('table-row-title').innerText()).resolves.toBe(`Services ${service}`);
    await dialog.getByTestId('grid-panel').first().waitFor();
    await dialog.locator('[data-testid="grid-panel"] canvas').first().waitFor();
    await expect(dialog.getByTestId('panel-error-icon').count()).resolves.toBe(0);
    // Panels in the row's dialog are not editable.
    await expect(dialog.locator('.react-resizable-handle:visible').count()).resolves.toBe(0);
    await screenshot(page, 'dashboards-06-row-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The template's heatmap names no unit: its bins read in the metric's (microseconds), not bare numbers.
    await page.getByTestId('dash-tab-grid').click();
    const heatmap = page
      .locator('[data-testid="grid-panel"][data-panel-name="Latency heatmap"]')
      .getByTestId('heatmap');
    await heatmap.locator('canvas').first().waitFor();
    await expect.poll(() => heatmap.getAttribute('data-unit')).toBe('microseconds');
    await screenshot(page, 'dashboards-07-template-heatmap');

    // The slowest operations read by name; a name opens that operation's spans (issue 41).
    const link = page
      .locator('[data-testid="grid-panel"][data-panel-name="Slowest operations"]')
      .getByTestId('group-link')
      .first();
    await link.waitFor();
    const operation = (await link.innerText()).trim();
    expect(operation).not.toMatch(/^\d+$/);
    const groupId = /^\.group_id = (\d+)$/.exec((await link.getAttribute('title')) ?? '')?.[1];
    expect(groupId).toBeDefined();
    await link.click();
    await page.waitForURL((url) => url.pathname === '/spans/1/items');
    expect(new URL(page.url()).searchParams.get('query')).toBe(`where .group_id = ${groupId}`);
    const spanRows = page.getByTestId('span-list-row');
    await spanRows.first().waitFor();
    // Every span listed is of that operation.
    const names = await page.getByTestId('span-list-name').allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names.map((n) => n.trim()))).toEqual(new Set([operation]));
    await page.goBack();
    await heatmap.waitFor();
  });
});
