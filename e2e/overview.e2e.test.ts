import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendTracingData } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The Overview, Getting started and the tracing routes as a person uses them, against the real
 * server with the tracing screens' data sent over real OTLP/HTTP (project 2 stays empty).
 */
describe('overview, getting started and tracing routes', () => {
  const t = useLantern();
  const ui = useSignedInPage(t, 'overview', async () => {
    await sendTracingData(t.lantern.baseUrl, t.dsn);
  });
  let page: Page;
  const explainFailures = () => {
    page = ui.page();
    ui.explainFailures();
  };

  it('overview: quick metrics, system tabs, env/service quick filters, slowest groups', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/overview/1`);
    await page.waitForURL(/\/overview\/1\/systems/);
    await page.getByTestId('overview').waitFor();
    await page.getByTestId('quick-metric').first().waitFor();
    const metrics = await page
      .getByTestId('quick-metric')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(metrics).toEqual(expect.arrayContaining(['spans', 'http', 'db', 'memdb', 'failures']));
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('groups-card').innerText()).resolves.toContain('.system overview');
    const systems = await page.getByTestId('group-name').allInnerTexts();
    expect(systems).toEqual(expect.arrayContaining(['.system="http:frontend"', '.system="db:postgresql"']));
    await screenshot(page, 'tracing-20-overview');

    // service: checkout narrows the systems list.
    await page.getByTestId('quick-filter-service.name').click();
    await page.getByTestId('quick-filter-option').filter({ hasText: 'checkout' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/query=where\+service\.name/);
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('[data-testid="group-name"]')).some((e) =>
          e.textContent?.includes('http:frontend'),
        ),
    );
    await expect(page.getByTestId('group-name').allInnerTexts()).resolves.toContain('.system="http:checkout"');
    await screenshot(page, 'tracing-21-overview-filtered');

    // Slowest groups, sorted by p50 descending, with 'View groups' into Explore spans.
    await page.getByTestId('overview-tab').filter({ hasText: 'Slowest groups' }).click();
    await page.waitForURL(/slowest-groups/);
    await page
      .getByTestId('groups-card')
      .filter({ hasText: 'Slowest groups' })
      .locator('[data-testid="group-value"][data-column="p50(.duration)"]')
      .first()
      .waitFor();
    const p50 = await page.locator('[data-testid="group-value"][data-column="p50(.duration)"]').allInnerTexts();
    expect(p50.length).toBeGreaterThan(1);
    await screenshot(page, 'tracing-22-overview-slowest');
    await page.getByTestId('view-groups').click();
    await page.waitForURL(/\/spans\/1\?/);
    await page.getByTestId('explore-spans').waitFor();
    expect(ui.errors()).toEqual([]);
  });

  it('overview sparklines: light SVG lines that come with the groups answer, a rate without errors a 0 line; a column plotted later asks per row, rows below the fold when scrolled to', async () => {
    explainFailures();
    const stats: string[] = [];
    const groups: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/group-stats')) stats.push(r.url());
      if (r.url().includes('/groups?')) groups.push(r.url());
    };
    await page.setViewportSize({ width: 1440, height: 520 });
    // No call of the page the last test left (Explore's groups) is counted.
    await page.goto('about:blank');
    page.on('request', onRequest);
    try {
      await page.goto(`${t.lantern.baseUrl}/overview/1/systems`);
      const rows = page.getByTestId('group-row');
      await rows.first().locator('[data-testid="sparkline-line"]').first().waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const inViewRows = () =>
        rows.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top < innerHeight + 100));
      const fold = await inViewRows();
      const inView = fold.filter(Boolean).length;
      expect(inView).toBeGreaterThan(0);
      expect(fold.length - inView, 'rows below the fold').toBeGreaterThan(0);
      // No chart engine: every sparkline is an <svg> with path data.
      const tags = await page.getByTestId('sparkline').evaluateAll((els) => els.map((e) => e.tagName.toLowerCase()));
      expect(new Set(tags)).toEqual(new Set(['svg']));
      // One call for the page: the groups answer carries the series of its rows (the view's 5
      // plotted columns), asked with the default system before the picker writes it to the address.
      // (A minute that ends meanwhile moves "last hour" on: the one question asked again for it.)
      expectOneQuestion(groups);
      const asked = new URL(groups[0]).searchParams;
      expect(asked.getAll('system')).toEqual(['all']);
      expect(asked.getAll('stats_column')).toEqual([
        '.count_per_min',
        '.error_rate',
        'p50(.duration)',
        'p90(.duration)',
        'p99(.duration)',
      ]);
      expect(stats).toEqual([]);
      // Every row of the page is drawn from it, below the fold too, without a call of its own.
      for (const row of await rows.all())
        expect(await row.locator('[data-testid="sparkline"][data-drawn="true"]').count()).toBe(5);
      await screenshot(page, 'tracing-27-overview-sparklines', { fullPage: false });

      // A system whose spans never failed: its err% sparkline is one flat line over the whole width.
      const zeroRate = page
        .getByRole('cell')
        .filter({ has: page.locator('[data-testid="group-value"][data-column=".error_rate"]', { hasText: /^0%$/ }) });
      // A flat line has no height: attached, not 'visible' to Playwright.
      await zeroRate.first().locator('[data-testid="sparkline-line"]').waitFor({ state: 'attached' });
      const line = await zeroRate.first().locator('[data-testid="sparkline-line"]').getAttribute('d');
      const points = [...(line ?? '').matchAll(/([\d.]+) ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(line?.match(/M/g)).toHaveLength(1);
      expect(new Set(points.map((p) => p[1])).size).toBe(1);
      expect(points[0][0]).toBeLessThanOrEqual(2);
      expect(points[points.length - 1][0]).toBeGreaterThanOrEqual(98);
      expect(await zeroRate.first().getByTestId('sparkline-dot').count()).toBe(0);

      // A column plotted later is not in the answer: the rows in view ask for their series, the
      // others when scrolled to; the groups are not asked again.
      await page.evaluate(() => scrollTo(0, 0));
      await page.getByTestId('plotted-columns').click();
      await page.getByRole('option', { name: 'max(.duration)' }).click();
      await page.keyboard.press('Escape');
      await rows.first().locator('[data-testid="sparkline"][data-drawn="true"]').nth(5).waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const inViewNow = (await inViewRows()).filter(Boolean).length;
      expect(inViewNow).toBeLessThan(fold.length);
      expect(stats).toHaveLength(inViewNow);
      expect(new URL(stats[0]).searchParams.getAll('column')).toContain('max(.duration)');
      const last = rows.last();
      expect(await last.locator('[data-testid="sparkline"][data-drawn="true"]').count()).toBe(5);
      await last.scrollIntoViewIfNeeded();
      await last.locator('[data-testid="sparkline"][data-drawn="true"]').nth(5).waitFor({ state: 'attached' });
      expect(stats.length).toBeGreaterThan(inViewNow);
      expect(stats.length).toBeLessThanOrEqual(fold.length);
      expectOneQuestion(groups);
    } finally {
      page.off('request', onRequest);
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
    expect(ui.errors()).toEqual([]);
  });

  it('overview: the error log tabs (log:error ...) show for date ranges up to 3 days only', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/overview/1/systems`);
    const tabs = page.getByTestId('overview-tab');
    const errorTab = tabs.filter({ hasText: /^log:error \(\d+\)$/ });
    const choosePeriod = async (text: string) => {
      await page.getByTestId('overview').getByTestId('period-picker').click();
      await page
        .getByTestId('period-option')
        .filter({ hasText: `Last ${text}` })
        .click();
    };
    // The last hour holds the error logs sent above: their tab sits after Systems.
    await errorTab.waitFor();
    expect((await tabs.allInnerTexts())[1]).toMatch(/^log:error \(\d+\)$/);

    await choosePeriod('7 days');
    await expect.poll(() => new URL(page.url()).searchParams.get('time_dur')).toBe(String(7 * 86_400));
    await errorTab.waitFor({ state: 'detached' });
    expect(await tabs.allInnerTexts()).toEqual(expect.arrayContaining(['Systems', 'Slowest groups']));
    await page.getByTestId('group-row').first().waitFor();
    await screenshot(page, 'tracing-23-overview-7-days');

    await choosePeriod('3 days');
    await expect.poll(() => new URL(page.url()).searchParams.get('time_dur')).toBe(String(3 * 86_400));
    await errorTab.waitFor();
    await screenshot(page, 'tracing-24-overview-3-days');
    expect(ui.errors()).toEqual([]);
  });

  it('unknown paths under the Overview and Explore spans show the not-found screen; every real one its page', async () => {
    explainFailures();
    const notFound = page.getByTestId('not-found');
    for (const path of [
      '/overview/1/nope',
      '/overview/1/systems/extra',
      '/overview/1/groups',
      '/spans/1/nope',
      '/spans/1/items/extra',
      '/spans/1/groups',
      '/spans/1/constructor',
    ]) {
      await page.goto(`${t.lantern.baseUrl}${path}`);
      await notFound.waitFor();
      await expect(notFound.innerText(), path).resolves.toContain('Page not found');
      await expect.poll(() => page.title(), { message: path }).toMatch(/^Page not found · /);
      expect(await page.getByTestId('overview').count(), path).toBe(0);
      expect(await page.getByTestId('explore-spans').count(), path).toBe(0);
    }
    await screenshot(page, 'tracing-25-spans-unknown-path');

    const pages: [string, string, string][] = [
      ['/overview/1', 'overview', '.system overview'],
      ['/overview/1/systems/', 'overview', '.system overview'],
      ['/overview/1/slowest-groups', 'overview', 'Slowest groups'],
      ['/overview/1/groups/http%3Afrontend', 'overview', 'http:frontend groups'],
      ['/overview/1/attributes/service.name', 'overview', 'service.name overview'],
      ['/spans/1', 'explore-spans', 'Groups'],
      ['/spans/1/items', 'explore-spans', 'Spans'],
      ['/spans/1/timeseries', 'explore-spans', 'Timeseries'],
    ];
    for (const [path, testId, text] of pages) {
      await page.goto(`${t.lantern.baseUrl}${path}`);
      await page.getByTestId(testId).waitFor();
      await page.getByTestId(testId).getByText(text, { exact: true }).first().waitFor();
      expect(await notFound.count(), path).toBe(0);
    }
    expect(ui.errors()).toEqual([]);
  });

  it('explore spans on a project without data shows the getting-started card, as the Overview does', async () => {
    explainFailures();
    const help = page.getByTestId('tracing-help');
    for (const path of ['/spans/2', '/spans/2/items', '/spans/2/timeseries']) {
      await page.goto(`${t.lantern.baseUrl}${path}`);
      await help.waitFor();
      await expect(help.innerText(), path).resolves.toContain('Send data to Lantern');
      await expect(page.getByTestId('help-collector').innerText(), path).resolves.toContain('send_batch_size: 10000');
      expect(await page.getByTestId('explore-spans').count(), path).toBe(0);
    }
    // The card keeps the date range picker: a range with no data can be left from here.
    await help.getByTestId('date-range-picker').waitFor();
    await screenshot(page, 'tracing-26-explore-no-data');
    expect(ui.errors()).toEqual([]);
  });

  it('getting started: snippets with the DSN, copy buttons, and "Send demo data" fills an empty project', async () => {
    explainFailures();
    // Project 2 has no data: its overview is the getting-started card.
    await page.goto(`${t.lantern.baseUrl}/overview/2`);
    await page.getByTestId('tracing-help').waitFor();
    await expect(page.getByTestId('help-collector').innerText()).resolves.toContain('send_batch_size: 10000');
    await expect(page.getByTestId('pipelines-warning').innerText()).resolves.toContain('silently ignores');
    await expect(page.getByTestId('help-vector').innerText()).resolves.toContain('compression = "gzip"');
    await expect(page.getByTestId('help-zipkin').innerText()).resolves.toContain('lantern-dsn:');
    await page.getByTestId('collector-tab-http').click();
    await expect(page.getByTestId('help-collector').innerText()).resolves.toContain('otlphttp/lantern');
    await page.getByTestId('help-sdk-env-copy').click();
    await page.locator('[data-testid="help-sdk-env-copy"][data-copied="true"]').waitFor();
    await screenshot(page, 'tracing-30-getting-started');

    // The overview turns into the real thing as soon as the demo data is in.
    await page.getByTestId('send-demo-data').click();
    await page.getByTestId('overview').waitFor({ timeout: 60_000 });
    await page.getByTestId('group-row').first().waitFor();
    await expect(page.getByTestId('group-name').allInnerTexts()).resolves.toContain('.system="http:frontend"');
    await page.getByTestId('quick-metric').first().waitFor();
    await screenshot(page, 'tracing-31-demo-overview');
    // Explore spans, too, shows the project's groups now.
    await page.goto(`${t.lantern.baseUrl}/spans/2`);
    await new ExplorePage(page).waitForGroups();
    expect(await page.getByTestId('tracing-help').count()).toBe(0);
    expect(ui.errors()).toEqual([]);
  });
});

/**
 * The page asked one question: every call the same but for the range, each range asked once (a
 * minute that ends while the page loads moves a relative range on, and that is a new question).
 */
function expectOneQuestion(urls: string[]) {
  const withoutRange = (u: string) => {
    const q = new URL(u).searchParams;
    q.delete('time_gte');
    q.delete('time_lt');
    return q.toString();
  };
  expect(urls.length).toBeGreaterThan(0);
  expect(new Set(urls.map(withoutRange)).size, urls.join('\n')).toBe(1);
  expect(new Set(urls).size, urls.join('\n')).toBe(urls.length);
}
