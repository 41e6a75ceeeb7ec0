import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { removeDataDir, signIn, startLantern, type RunningLantern } from '@lantern/testkit/harness';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { SpanCard } from '@lantern/testkit/pages/SpanCard';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { sendTracingData, spansOf, type TracingData } from '@lantern/testkit/tracingData';

/**
 * The tracing screens as a person uses them, against the real server with data sent over real
 * OTLP/HTTP: the trace timeline, Explore spans and the span card (the Overview, Getting started
 * and the tracing routes: overview.e2e).
 */
describe('tracing screens', () => {
  let lantern: RunningLantern;
  let browser: BrowserLease;
  let page: Page;
  let data: TracingData;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    lantern = await startLantern();
    const cookie = await signIn(lantern.baseUrl);
    const project = (await (await fetch(`${lantern.baseUrl}/api/v1/projects/1`, { headers: { cookie } })).json()) as {
      http: { dsn: string };
    };
    data = await sendTracingData(lantern.baseUrl, project.http.dsn);
    browser = await leaseBrowser();
    const context = await signedInContext(browser, lantern.baseUrl, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${lantern.output().slice(-5000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      ),
    );

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    if (lantern) removeDataDir(lantern.dataDir);
  });

  it('trace page: timeline bars, systems, collapse and expand, span dialog with tabs', async () => {
    explainFailures();
    const trace = new TracePage(page);
    await trace.goto(lantern.baseUrl, 1, data.failedCheckoutTraceId);
    const expected = spansOf(data.shop).filter((s) => s.traceId === data.failedCheckoutTraceId);
    await expect(trace.title.innerText()).resolves.toBe('POST /api/checkout');
    await expect(page.getByTestId('header-status').innerText()).resolves.toContain('error');
    // Starts fully expanded: every span has a row, each with its bar.
    await expect(trace.rows.count()).resolves.toBe(expected.length);
    await expect(page.getByTestId('span-bar').count()).resolves.toBe(expected.length);
    expect(await trace.systemBarItems.count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('system-bar').innerText()).resolves.toContain('db:postgresql');
    await expect(page.getByTestId('trace-tabs').innerText()).resolves.toMatch(/log:error \(\d+\)/);
    await page.getByTestId('pctile-chart').waitFor();
    await screenshot(page, 'tracing-01-trace');

    // The root row's label reads "<self> of <total>" while expanded.
    await expect(trace.rows.first().getByTestId('span-bar-label').innerText()).resolves.toMatch(/ of /);
    await trace.toggles.first().click();
    await expect(trace.rows.count()).resolves.toBe(1);
    await screenshot(page, 'tracing-02-trace-collapsed');
    await trace.toggles.first().click();
    await expect(trace.rows.count()).resolves.toBe(expected.length);

    // A database span opens its card: attributes, then the SQL tabs.
    await trace.openSpan('INSERT INTO orders (user_id, total) VALUES ($1, $2)');
    const card = new SpanCard(page, trace.dialog);
    await expect(card.fact('kind').innerText()).resolves.toContain('client');
    expect(await card.attrKeys()).toContain('db.statement');
    await card.root.getByTestId('attr-filter-input').fill('db.sql');
    await expect(card.attrKeys()).resolves.toEqual(['db.sql.table']);
    await card.tab('sql').click();
    await expect(card.root.getByTestId('span-sql').innerText()).resolves.toContain('INSERT INTO orders');
    await card.tab('sql-pretty').click();
    await expect(card.root.getByTestId('span-sql-pretty').innerText()).resolves.toMatch(/INSERT INTO\s+orders/);
    await card.tab('percentiles').click();
    await card.root.getByTestId('pctile-chart').waitFor();
    await screenshot(page, 'tracing-03-span-dialog');
    await trace.closeDialog();

    // The failing payment call carries the exception: Stacktrace and Events tabs.
    await trace.openSpan('charge card');
    await card.tab('stacktrace').click();
    await expect(card.root.getByTestId('span-stacktrace').innerText()).resolves.toContain('PaymentDeclinedError');
    await expect(card.tab('events').innerText()).resolves.toBe('Events (1)');
    await card.tab('events').click();
    await expect(card.root.getByTestId('event-panel').innerText()).resolves.toContain('PaymentDeclinedError');
    await trace.closeDialog();
    expect(browserErrors).toEqual([]);
  });

  it('trace page stays responsive on a 10,000-span trace (virtualised timeline)', async () => {
    explainFailures();
    const trace = new TracePage(page);
    const started = Date.now();
    await trace.goto(lantern.baseUrl, 1, data.big.traceId);
    await trace.rows.first().waitFor();
    const loadMs = Date.now() - started;
    // Only the rows near the viewport are in the page.
    expect(await trace.rows.count()).toBeLessThan(200);
    const scrollStart = Date.now();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="span-row"]').length > 0);
    const scrollMs = Date.now() - scrollStart;
    const toggleStart = Date.now();
    await page.evaluate(() => window.scrollTo(0, 0));
    // A trace this big opens collapsed below its first levels; collapse all, then expand all.
    await page.getByTestId('trace-collapse-all').click();
    await expect(trace.rows.count()).resolves.toBe(1);
    await page.getByTestId('trace-expand-all').click();
    await trace.rows.nth(5).waitFor();
    const toggleMs = Date.now() - toggleStart;
    console.log(
      `10,000-span trace: load ${loadMs} ms, scroll to end ${scrollMs} ms, collapse all + expand all ${toggleMs} ms`,
    );
    expect(toggleMs).toBeLessThan(5000);
    await screenshot(page, 'tracing-04-big-trace', { fullPage: false });
  });

  it('explore spans: build a query with the builder, see the groups change, open spans and a span', async () => {
    explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(lantern.baseUrl, 1);
    // The picker chooses the first system and the page gets the default group query.
    await page.waitForURL(/system=all/);
    await page.waitForURL(/query=group/);
    await explore.waitForGroups();
    expect(await explore.chipTexts()).toEqual([
      '.group_id',
      '.count_per_min',
      '.error_rate',
      '{p50,p90,p99}(.duration)',
    ]);
    const allGroups = await explore.groupNameTexts();
    await screenshot(page, 'tracing-10-explore-groups');
    expect(allGroups).toContain('render page');
    expect(allGroups).toHaveLength(15);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="groups-count"]')?.textContent?.split(' ')[0]) > 15,
    );
    await page.getByTestId('groups-pager-text').waitFor();

    // Duration >= 1 ms keeps fewer groups (redis calls are under a millisecond).
    const duration = await explore.openMenu('duration');
    await duration.getByTestId('duration-gte').fill('1');
    await duration.getByTestId('duration-apply').click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some((e) =>
        e.textContent?.includes('.duration >= 1ms'),
      ),
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="group-name"]')).every(
        (e) => !e.textContent?.startsWith('GET session:'),
      ),
    );
    // The address follows the screen after a 100 ms debounce (useAddressState): read once it has the filter.
    await page.waitForURL((u) => (u.searchParams.get('query') ?? '').includes('where .duration >= 1ms'));

    // Where service.name = "checkout" leaves only the checkout service's groups.
    const where = await explore.openMenu('where');
    await where.getByTestId('where-column').fill('service.name');
    await page.getByRole('option', { name: 'service.name', exact: true }).waitFor();
    await where.getByTestId('where-value').fill('checkout');
    await where.getByText('For example').click();
    await where.getByTestId('where-apply').click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="group-name"]')).every(
        (e) => !e.textContent?.includes('GET /api/products'),
      ),
    );
    const checkoutGroups = await explore.groupNameTexts();
    expect(checkoutGroups).toContain('POST /checkout');
    expect(checkoutGroups).not.toContain('GET /products/:id');
    await screenshot(page, 'tracing-11-explore-filtered');

    // A broken part gets its own error under its chip, from the shared parser.
    await page.getByTestId('query-add').click();
    await page.getByTestId('query-chip-input').fill('where .duration >');
    await page.getByTestId('query-chip-input').press('Enter');
    await page.getByTestId('query-chip-error').waitFor();
    await expect(page.getByTestId('query-chip-error').innerText()).resolves.toMatch(/value/);
    await screenshot(page, 'tracing-12-explore-chip-error');
    await page.locator('[data-testid="query-chip"][data-error="true"] [data-testid="query-chip-delete"]').click();
    await page.getByTestId('query-chip-error').waitFor({ state: 'detached' });

    // Group by service.name: one row per service.
    const groupBy = await explore.openMenu('group-by');
    await groupBy.getByTestId('group-chip').filter({ hasText: 'service.name' }).click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="group-name"]')).some((e) =>
        e.textContent?.includes('service.name='),
      ),
    );
    await expect(explore.groupNameTexts()).resolves.toEqual(['service.name="checkout"']);

    // Reset, search for checkout, then a row expands to its spans and a span opens its card.
    await page.getByTestId('qb-reset').click();
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some((e) =>
          e.textContent?.includes('checkout'),
        ),
    );
    const search = await explore.openMenu('search');
    await search.getByTestId('search-text').fill('api/checkout');
    await search.getByTestId('search-apply').click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="group-name"]')).every((e) =>
        e.textContent?.includes('checkout'),
      ),
    );
    // The chart dialog plots the group's columns over its own date range.
    await explore.groupRows.filter({ hasText: 'POST /api/checkout' }).first().getByTestId('group-chart-open').click();
    await page.getByTestId('group-chart').nth(1).waitFor();
    expect(await page.getByTestId('group-chart').count()).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'tracing-13a-group-chart');
    await page.getByTestId('group-chart-close').click();
    await page.getByTestId('group-chart-dialog').waitFor({ state: 'detached' });
    await explore.groupRows.filter({ hasText: 'POST /api/checkout' }).first().click();
    await page.getByTestId('group-spans').getByTestId('span-list-row').first().waitFor();
    await screenshot(page, 'tracing-13-explore-group-spans');
    await page.getByTestId('group-spans').getByTestId('span-list-row').first().click();
    const card = new SpanCard(page, page.getByTestId('span-dialog'));
    await expect(card.title.innerText()).resolves.toBe('POST /api/checkout');
    await card.tab('attrs').click();
    expect(await card.attrKeys()).toContain('http.route');
    await card.root.getByTestId('attrs-view-json').click();
    await expect(card.root.getByTestId('attrs-json').innerText()).resolves.toContain('"route": "/api/checkout"');
    await card.tab('percentiles').click();
    await card.root.getByTestId('pctile-chart').waitFor();
    await page.getByTestId('span-dialog-close').click();

    // 'Filter spans for this group' opens the Spans tab for that group.
    await explore.groupRows.filter({ hasText: 'POST /api/checkout' }).first().getByTestId('group-spans-link').click();
    await page.waitForURL(/\/spans\/1\/items\?/);
    await explore.spanRows.first().waitFor();
    const names = (await page.getByTestId('span-list-name').allInnerTexts()).map((t) => t.trim());
    expect(new Set(names)).toEqual(new Set(['POST /api/checkout']));
    await expect(page.getByTestId('spans-count').innerText()).resolves.toMatch(/\d+ spans/);
    // The span list ignores grouping and aggregates: the server marks those chips disabled.
    await page.locator('[data-testid="query-chip"][data-disabled="true"]').filter({ hasText: 'group by' }).waitFor();
    await page.getByTestId('pctile-chart').waitFor();
    await screenshot(page, 'tracing-14-explore-spans');
    expect(browserErrors).toEqual([]);
  });

  it('explore spans: saved views, date range in the address across reloads, timeseries', async () => {
    explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(lantern.baseUrl, 1);
    // The page first writes its defaults (systems, query, time) into the address.
    await page.waitForURL((u) => ['system', 'query', 'time_dur'].every((k) => u.searchParams.has(k)));
    await explore.waitForGroups();

    // The period menu writes time_dur; the address survives a reload.
    await page.getByTestId('period-picker').click();
    await page.getByTestId('period-option').filter({ hasText: 'Last 3 hours' }).click();
    await page.waitForURL(/time_dur=10800/);
    // A live range is its duration alone (a relative link); previous period fixes a start.
    expect(explore.url().searchParams.get('time_gte')).toBeNull();
    await expect(page.getByTestId('date-next').isDisabled()).resolves.toBe(true);
    const nowGte = explore.url().searchParams.get('time_gte');
    await page.getByTestId('date-prev').click();
    await page.getByTestId('date-now').waitFor();
    await page.waitForFunction((g) => new URL(location.href).searchParams.get('time_gte') !== g, nowGte);
    await expect(page.getByTestId('date-next').isEnabled()).resolves.toBe(true);
    const before = explore.url().searchParams.get('time_gte');
    await page.reload();
    // The data is from the last minutes, so the 3 hours before the last 3 have none: the page settles on the
    // getting-started card with the range kept and its date picker (Explore's own toolbar shows only
    // until the systems' answer says so: waiting for it raced that answer).
    await page.getByTestId('tracing-help').getByTestId('date-from-text').waitFor();
    expect(explore.url().searchParams.get('time_gte')).toBe(before);
    expect(explore.url().searchParams.get('time_dur')).toBe('10800');
    await screenshot(page, 'tracing-15-explore-past-range');
    await page.getByTestId('date-now').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="date-now"]'));
    await explore.waitForGroups();

    // Save a view, pin it, open it, delete it.
    const search = await explore.openMenu('search');
    await search.getByTestId('search-text').fill('checkout');
    await search.getByTestId('search-apply').click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some((e) =>
        e.textContent?.includes('"checkout"'),
      ),
    );
    await page.getByTestId('view-save-open').click();
    await page.getByTestId('views-empty').waitFor();
    await page.getByTestId('view-name').fill('Checkout groups');
    await page.getByTestId('view-save').click();
    await page.getByTestId('saved-view').first().waitFor();
    await expect(page.getByTestId('saved-view-name').first().innerText()).resolves.toBe(
      'Groups > all > Checkout groups',
    );
    await page.getByTestId('view-pin').click();
    await page.locator('[data-testid="saved-view"][data-pinned="true"]').waitFor();
    await screenshot(page, 'tracing-16-saved-views');
    // The drawer is gone before it opens again, and the view is clicked in the open one (in a whole run at
    // load ~8 the saved view's query once never showed). Escape closes it; in a loaded whole run one press
    // once left it open for 30 s, so, as a person would, Escape is pressed again while it stays.
    for (let press = 1; ; press++) {
      await page.keyboard.press('Escape');
      try {
        await page.getByTestId('views-drawer').waitFor({ state: 'detached', timeout: 5_000 });
        break;
      } catch (err) {
        if (press === 4) throw err;
      }
    }
    await page.getByTestId('qb-reset').click();
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some((e) =>
          e.textContent?.includes('"checkout"'),
        ),
    );
    await page.getByTestId('views-open').click();
    await page.getByTestId('views-drawer').getByTestId('saved-view-name').first().click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some((e) =>
        e.textContent?.includes('"checkout"'),
      ),
    );
    await page.getByTestId('views-open').click();
    await page.getByTestId('view-delete').click();
    await page.getByTestId('views-empty').waitFor();
    // The delete button is gone with its view; Escape reaches the drawer once focus is back in it.
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="views-drawer"]')?.contains(document.activeElement),
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('views-drawer').waitFor({ state: 'detached' });

    // Filters drawer: an attribute's values with counts; a click filters by that value.
    await page.getByTestId('qb-filters').click();
    await page.getByTestId('facet-search').fill('deployment');
    await page.locator('[data-testid="facet-item"][data-attr="deployment.environment"]').click();
    await page.getByTestId('facet-value').filter({ hasText: 'staging' }).click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some(
        (e) => e.textContent === 'deployment.environment = "staging"',
      ),
    );
    await screenshot(page, 'tracing-16a-facets');
    await page.keyboard.press('Escape');
    // Status: '.status_code = "error"' keeps only groups with errors.
    const status = await explore.openMenu('status');
    await status.getByTestId('status-option').filter({ hasText: 'error' }).click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid="query-chip-text"]')).some(
        (e) => e.textContent === '.status_code = "error"',
      ),
    );
    await page.waitForFunction(() => {
      const rates = Array.from(document.querySelectorAll('[data-testid="group-value"][data-column=".error_rate"]')).map(
        (e) => e.textContent,
      );
      return rates.length > 0 && rates.every((t) => t === '100%');
    });

    // Timeseries: one chart per metric column and the groups table.
    await page.getByTestId('tab-timeseries').click();
    await page.waitForURL(/\/spans\/1\/timeseries/);
    await page.getByTestId('timeseries-chart').first().waitFor();
    expect(await page.getByTestId('timeseries-chart').count()).toBeGreaterThanOrEqual(2);
    await page.getByTestId('timeseries-groups').waitFor();
    // Hovering a group's row emphasises its line (the chart's pixels change), leaving it restores.
    // A viewport tall enough for the chart and the row at once: a screenshot of a chart partly out
    // of view scrolls it in, which moves the row from under the pointer and ends the emphasis.
    await page.setViewportSize({ width: 1440, height: 1600 });
    const chart = page.getByTestId('timeseries-chart').first().getByTestId('echart');
    await page.waitForSelector('[data-testid="timeseries-chart"] [data-testid="echart"][data-ready] canvas');
    await page.waitForTimeout(800); // the first draw's animation
    const plain = await chart.screenshot();
    await page.getByTestId('timeseries-group-row').first().hover();
    await page.waitForTimeout(600);
    const emphasised = await chart.screenshot();
    await screenshot(page, 'tracing-17-timeseries');
    expect(emphasised.equals(plain)).toBe(false);
    await page.mouse.move(5, 5);
    await page.waitForTimeout(600);
    expect((await chart.screenshot()).equals(emphasised)).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(browserErrors).toEqual([]);
  });
});
