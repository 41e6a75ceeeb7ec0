import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { clearOfMinuteEnd, createTestMeter } from '@lantern/testkit/otlpMetrics';
import { screenshot, type BrowserLease } from '@lantern/testkit/pages/browser';
import { DashGridPage } from '@lantern/testkit/pages/DashGridPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { useLantern } from '@lantern/testkit/useLantern';
import { apiAs, createShopDashboard } from './shopDashboard';

/**
 * A dashboard opened from a link, as a returning user opens it: the panels ask for the link's range
 * only, and their calls start with the page's code, not after the session check, the dashboard's
 * answer and the layout; a browser without a session asks for nothing, one whose session ended
 * lands on Login. A live range ("Last 1 hour") is a relative link, opened later it shows the last
 * hour then; auto-refresh brings a new point in without a reload.
 */
const server = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });

describe('dashboard links', () => {
  let dashId: string;
  const session = useSignedInPage(server, 'dash-links', async () => {
    dashId = await createShopDashboard(server);
  });
  const explainFailures = session.explainFailures;
  let browser: BrowserLease;
  let page: Page;

  beforeAll(async () => {
    page = session.page();
    browser = page.context().browser()!;
    // This browser has seen the dashboard once.
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await grid.panel('Requests by host').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
  });

  it('a link with a range: the panels ask for that range only, nothing is asked and dropped', async () => {
    explainFailures();
    // A new tab (the app starts at its default range, 1 hour) opens a link for 24 hours. Its page
    // code comes late, so the dashboard the layout fetched is known when the page first renders
    // (as on a slow network or a busy machine): it draws its panels on that very render.
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      storageState: await page.context().storageState(),
    });
    const tab = await context.newPage();
    await tab.route(/\/assets\/DashboardPage-[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    const asked: string[] = [];
    const dropped: string[] = [];
    const isPanelCall = (url: string) => /\/api\/v1\/metrics\/1\/(timeseries|table)\?/.test(url);
    tab.on('request', (r) => void (isPanelCall(r.url()) && asked.push(r.url())));
    tab.on('requestfailed', (r) => void (isPanelCall(r.url()) && dropped.push(r.url())));
    try {
      // A live range ends at the next whole minute: the calls started before the page renders and
      // the page's own agree only within one minute, so the load does not straddle a minute's end.
      await clearOfMinuteEnd(20_000);
      const tabGrid = new DashGridPage(tab);
      await tabGrid.goto(server.lantern.baseUrl, 1, dashId, '&time_dur=86400');
      await tabGrid.panel('Requests by host').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
      await tabGrid.panel('Requests by route').getByTestId('table-panel-row').first().waitFor();
      const hours = asked.map((u) => {
        const q = new URL(u).searchParams;
        return (Date.parse(q.get('time_lt') ?? '') - Date.parse(q.get('time_gte') ?? '')) / 3_600_000;
      });
      // The three panels (the broken one too), one call each, over 24 hours; none for 1 hour.
      expect(hours).toEqual([24, 24, 24]);
      expect(dropped).toEqual([]);
      expect(new URL(tab.url()).searchParams.get('time_dur')).toBe('86400');
    } finally {
      await context.close();
    }
  });

  it("a link to a dashboard starts its panels' calls while the Metrics code, the session check and the dashboard load; signed out, nothing but the session check", async () => {
    explainFailures();
    const isMetricsCall = (url: string) => /\/api\/v1\/metrics\//.test(url);
    const isPanelCall = (url: string) => /\/api\/v1\/metrics\/1\/(timeseries|table)\?/.test(url);
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      storageState: await page.context().storageState(),
    });
    const tab = await context.newPage();
    // The Metrics layout's code, the session check and the dashboard answer late (a slow network or a
    // busy machine): held until the three panels have asked, or 15 s. This browser was signed in and has
    // seen the dashboard, so the panels' calls wait for none of them (a build whose calls wait is held
    // the whole 15 s and fails below, on any machine load).
    let panelCalls = 0;
    let allAsked = () => {};
    const panelsAsked = new Promise<void>((resolve) => (allAsked = resolve));
    const held = async (url: string | RegExp) => {
      const state = { answered: false };
      await tab.route(url, async (route) => {
        await Promise.race([panelsAsked, new Promise((r) => setTimeout(r, 15_000))]);
        state.answered = true;
        await route.continue();
      });
      return state;
    };
    const layout = await held(/\/assets\/MetricsLayout-[^/]*\.js$/);
    const session = await held('**/api/v1/users/current');
    const dashboard = await held(new RegExp(`/api/v1/metrics/1/dashboards/${dashId}(\\?|$)`));
    const beforeLayout: string[] = [];
    const beforeSession: string[] = [];
    const beforeDashboard: string[] = [];
    tab.on('request', (r) => {
      if (!isPanelCall(r.url())) return;
      if (++panelCalls === 3) allAsked();
      if (!layout.answered) beforeLayout.push(r.url());
      if (!session.answered) beforeSession.push(r.url());
      if (!dashboard.answered) beforeDashboard.push(r.url());
    });
    try {
      // A live range ends at the next whole minute: the calls started before the page renders and
      // the page's own agree only within one minute, so the load does not straddle a minute's end.
      await clearOfMinuteEnd(20_000);
      const tabGrid = new DashGridPage(tab);
      await tabGrid.goto(server.lantern.baseUrl, 1, dashId, '&time_dur=86400');
      await tabGrid.panel('Requests by host').locator('[data-testid="echart"][data-ready] canvas').first().waitFor();
      // All three panels asked before the layout's code, the session check and the dashboard came.
      expect(beforeLayout).toHaveLength(3);
      expect(beforeSession).toHaveLength(3);
      expect(beforeDashboard).toHaveLength(3);
    } finally {
      await context.close();
    }

    // A browser whose session ended since (the hint is stale): the calls answer 401 and the page
    // signs out to Login, as any call after the session ends; the hint is gone afterwards.
    const ended = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await ended.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) localStorage.setItem('lantern.signedIn', '1');
      sessionStorage.setItem('seeded', '1');
    });
    const stale = await ended.newPage();
    try {
      await stale.goto(`${server.lantern.baseUrl}/metrics/1/${dashId}?tab=grid`);
      await stale.getByTestId('login-card').waitFor();
      await expect(stale.evaluate(() => localStorage.getItem('lantern.signedIn'))).resolves.toBeNull();
    } finally {
      await ended.close();
    }

    const signedOut = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const anon = await signedOut.newPage();
    const asked: string[] = [];
    anon.on('request', (r) => void (isMetricsCall(r.url()) && asked.push(r.url())));
    try {
      await anon.goto(`${server.lantern.baseUrl}/metrics/1/${dashId}?tab=grid`);
      await anon.getByTestId('login-card').waitFor();
      expect(asked).toEqual([]);
    } finally {
      await signedOut.close();
    }
  });

  it('a live range is a relative link: opened two hours later it ends then; a fixed range stays where it was', async () => {
    explainFailures();
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, dashId);
    await page.getByTestId('period-picker').click();
    await page.getByTestId('period-option').filter({ hasText: 'Last 1 hour' }).click();
    await page.waitForURL((u) => u.searchParams.get('time_dur') === '3600');
    // The address (the link a person copies) holds the duration alone, no start.
    const link = page.url();
    expect(new URL(link).searchParams.has('time_gte')).toBe(false);

    // The same link opened two hours later (the browser's clock moved on): the panels ask for the
    // hour ending then.
    const later = Date.now() + 2 * 3_600_000;
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      storageState: await page.context().storageState(),
    });
    await context.clock.setFixedTime(later);
    const tab = await context.newPage();
    const ends: number[] = [];
    tab.on('request', (r) => {
      const u = new URL(r.url());
      if (/\/api\/v1\/metrics\/1\/(timeseries|table)$/.test(u.pathname))
        ends.push(Date.parse(u.searchParams.get('time_lt')!));
    });
    try {
      await tab.goto(link);
      await tab.getByTestId('grid-tab').waitFor();
      await expect.poll(() => ends.length).toBeGreaterThan(0);
      // The end is the minute after "now" (two hours on), not the end of the hour the link was copied in.
      for (const end of ends) expect(Math.abs(end - later)).toBeLessThan(60_000);
      // The picker is live: no "Now" button, no fixed dates.
      await expect(tab.getByTestId('date-now').count()).resolves.toBe(0);
      await screenshot(tab, 'dash-links-01-relative-link-later');

      // A fixed range (yesterday 10:00-11:00 UTC) opened later stays that range.
      const day = new Date(later - 86_400_000);
      const gte = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 10);
      const fixed = new URL(link);
      fixed.searchParams.set('time_gte', new Date(gte).toISOString().replace(/[-:]/g, '').slice(0, 15));
      ends.length = 0;
      await tab.goto(fixed.toString());
      await tab.getByTestId('date-now').waitFor();
      await expect.poll(() => ends.length).toBeGreaterThan(0);
      expect(ends.every((end) => end === gte + 3_600_000)).toBe(true);
      expect(new URL(tab.url()).searchParams.get('time_gte')).toBe(fixed.searchParams.get('time_gte'));
    } finally {
      await context.close();
    }
  });

  it('auto-refresh every 10 s: a point sent after turning it on shows up without a reload', async () => {
    explainFailures();
    // A panel of a host that has sent nothing yet.
    const api = apiAs(server);
    const liveId = (await api<{ dashboard: { id: string } }>('POST', '/api/v1/metrics/1/dashboards', { name: 'Live' }))
      .dashboard.id;
    await api('POST', `/api/v1/metrics/1/dashboards/${liveId}/grid`, {
      type: 'table',
      name: 'New host',
      params: {
        metrics: [{ name: 'shop.requests', alias: 'req' }],
        query: 'sum($req) | where host = web-9 | group by host',
      },
    });
    const grid = new DashGridPage(page);
    await grid.goto(server.lantern.baseUrl, 1, liveId, '&time_dur=3600');
    const panel = grid.panel('New host');
    const reloads = { count: 0 };
    const onRequest = (r: { url: () => string }) =>
      void (/\/api\/v1\/metrics\/1\/table\?/.test(r.url()) && reloads.count++);
    page.on('request', onRequest);
    try {
      await page.getByTestId('auto-refresh').click();
      await page.getByTestId('auto-refresh-option').filter({ hasText: 'Every 10 s' }).click();
      await page.waitForURL((u) => u.searchParams.get('refresh') === '10s');
      await expect(page.getByTestId('auto-refresh').innerText()).resolves.toContain('10 s');
      const asked = reloads.count;
      await expect(panel.getByTestId('table-panel-row').count()).resolves.toBe(0);
      // A mark on this document: a reload would lose it.
      await page.evaluate(() => ((window as unknown as { kept?: boolean }).kept = true));

      // web-9 sends its first requests now.
      const m = createTestMeter('http-proto', {
        httpUrl: server.lantern.baseUrl,
        grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
        dsn: server.dsn,
        serviceName: 'shop',
      });
      m.meter.createCounter('shop.requests').add(7, { host: 'web-9', route: '/cart' });
      await m.flush();
      await m.shutdown();

      // Within the next refresh (10 s, and the time ingest takes) the row is there; the page never reloaded.
      await panel.getByTestId('table-panel-row').filter({ hasText: 'web-9' }).waitFor({ timeout: 25_000 });
      expect(reloads.count).toBeGreaterThan(asked);
      await expect(page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).resolves.toBe(true);
      await screenshot(page, 'dash-links-02-auto-refresh');

      // Off again: the address forgets it.
      await page.getByTestId('auto-refresh').click();
      await page.getByTestId('auto-refresh-option').filter({ hasText: 'Off' }).click();
      await page.waitForURL((u) => !u.searchParams.has('refresh'));
    } finally {
      page.off('request', onRequest);
    }
  });

  it('the monitor list refreshes itself too: a monitor paused elsewhere shows paused without a reload', async () => {
    explainFailures();
    const api = apiAs(server);
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors?refresh=10s`);
    const row = page.getByTestId('monitor-row').first();
    await row.waitFor();
    await expect(page.getByTestId('auto-refresh').getAttribute('data-refresh')).resolves.toBe('10s');
    await expect(row.getByTestId('monitor-state').innerText()).resolves.toBe('active');
    const name = await row.getByTestId('monitor-name').innerText();
    const { monitors } = await api<{ monitors: { id: number; name: string }[] }>('GET', '/api/v1/projects/1/monitors');
    await page.evaluate(() => ((window as unknown as { kept?: boolean }).kept = true));
    // Paused by someone else (here: the API).
    await api('PUT', `/api/v1/projects/1/monitors/${monitors.find((m) => m.name === name)!.id}/paused`);
    await row.getByTestId('monitor-state').filter({ hasText: 'paused' }).waitFor({ timeout: 20_000 });
    await expect(page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).resolves.toBe(true);
    await screenshot(page, 'dash-links-03-monitor-list-refresh');
  });
});
