import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { ServiceGraphPage } from '@lantern/testkit/pages/ServiceGraphPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendTracingData } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Overview -> Service graph (issue 36) as a person uses it, against the real server: the demo shop
 * traces (frontend, catalog, checkout; PostgreSQL, Redis, the payments provider) go in over real
 * OTLP/HTTP, dated over the last ten minutes; the server's job (every second here) turns them into
 * the graph's minutes.
 */
describe('service graph', () => {
  const t = useLantern({
    env: { LANTERN_SERVICE_GRAPH_INTERVAL_SECONDS: '1', LANTERN_SERVICE_GRAPH_WAIT_SECONDS: '5' },
  });
  const ui = useSignedInPage(t, 'service-graph', async () => {
    await sendTracingData(t.lantern.baseUrl, t.dsn);
  });
  let page: Page;

  it('shows the services and their calls, a node card, and its link into Explore', async () => {
    page = ui.page();
    ui.explainFailures();
    const graph = new ServiceGraphPage(page);

    // The tab is one of the Overview's, in the address.
    await page.goto(`${t.lantern.baseUrl}/overview/1/systems`);
    await page.getByTestId('overview-tab').filter({ hasText: 'Service graph' }).click();
    await page.waitForURL(/\/overview\/1\/service-graph/);

    // The job writes the minutes within seconds of the spans' arrival: reload until they are in.
    await expect
      .poll(
        async () => {
          await page.reload();
          await graph.root.or(page.getByTestId('service-graph-empty')).waitFor();
          return graph.edgeTexts();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toEqual(
        expect.arrayContaining([
          'user -> frontend',
          'frontend -> catalog',
          'frontend -> checkout',
          'catalog -> postgresql/shop',
          'checkout -> payments',
        ]),
      );
    await page.waitForSelector('[data-testid="service-graph-chart"][data-drawn="true"]');
    await expect(graph.legend.innerText()).resolves.toMatch(/under 1 % errors[\s\S]*5 % errors or more[\s\S]*virtual/);
    // The failed checkouts are on the checkout edges: an error rate above 0.
    await expect(graph.edge('checkout', 'payments').getByTestId('edge-errors').innerText()).resolves.toMatch(
      /^[1-9][\d.]* %$/,
    );

    // Sortable: by client, A to Z, then Z to A.
    const clients = async () => (await graph.edgeTexts()).map((e) => e.split(' -> ')[0]);
    await graph.sortBy('client');
    const az = await clients();
    expect(az).toEqual([...az].sort((a, b) => a.localeCompare(b)));
    expect(new Set(az).size).toBeGreaterThan(1);
    await graph.sortBy('client');
    expect(await clients()).toEqual([...az].reverse());

    // The search highlights a service (the chart redraws).
    await graph.search.fill('checkout');
    await page.waitForSelector('[data-testid="service-graph-chart"][data-drawn="true"]');
    await screenshot(page, 'service-graph');

    // A node card: checkout's numbers, its calls over time, and its server spans in Explore.
    await graph.openNodeFromTable('checkout');
    await expect(graph.card.getByTestId('card-title').innerText()).resolves.toBe('checkout');
    expect(Number(await graph.card.getByTestId('card-calls').innerText())).toBeGreaterThan(0);
    await graph.card.getByTestId('sparkline').waitFor();
    await graph.card.getByTestId('card-explore').click();
    await page.waitForURL(/\/spans\/1\/items\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('query')).toBe(
      'where service.name = "checkout" | where .kind in ("server", "consumer")',
    );
    expect(url.searchParams.get('time_dur')).toBeTruthy();
    const explore = new ExplorePage(page);
    await explore.spanRows.first().waitFor();
    expect(await explore.spanRows.count()).toBeGreaterThan(0);
    await expect(explore.spanRows.first().innerText()).resolves.toContain('POST /checkout');
    expect(ui.errors()).toEqual([]);
  });
});
