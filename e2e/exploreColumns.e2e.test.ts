import type { Page } from 'playwright-core';
import type { SpansResponse, SystemsResponse } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { demoTraces } from '../packages/server/src/demo/demoTraces';
import { screenshot } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendOtlp } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Explore spans (issue 20 item 7): the page's title, the system picker grouped by type, the span
 * list's columns from the query's group-by and aggregations, and Timeseries rows that expand into
 * their spans like the Groups tab's. Demo shop traces go in over real OTLP/HTTP.
 */
describe('explore spans: title, systems by type, query columns, timeseries expansion', () => {
  const t = useLantern();
  const ui = useSignedInPage(t, 'explore-columns', async () => {
    await sendOtlp(t.lantern.baseUrl, t.dsn, demoTraces({ now: Date.now(), traces: 60, seed: 11 }));
    const deadline = Date.now() + 30_000;
    const range = `time_gte=${new Date(Date.now() - 3_600_000).toISOString()}&time_lt=${new Date(Date.now() + 60_000).toISOString()}`;
    while (Date.now() < deadline && (await api<SystemsResponse>(`systems?${range}`)).systems.length < 3)
      await new Promise((r) => setTimeout(r, 300));
  });
  let page: Page;
  const shot = (name: string) => screenshot(page, `explore-columns-${name}`);
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${t.lantern.baseUrl}/api/v1/tracing/1/${path}`, { headers: { cookie: t.cookie } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const explainFailures = () => {
    page = ui.page();
    ui.explainFailures();
  };

  it('is titled "Explore spans"; the system picker groups systems by type under <type>:all', async () => {
    explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1);
    await page.waitForURL((u) => u.searchParams.has('system') && u.searchParams.has('query'));
    await expect(page.getByRole('heading', { level: 1, name: 'Explore spans' }).isVisible()).resolves.toBe(true);

    const picker = page.getByTestId('system-picker').locator('input');
    const options = page.getByTestId('system-option');
    const openList = async () => {
      await picker.click();
      await options.first().waitFor();
      return options.evaluateAll((els) =>
        els.map(
          (el) =>
            `${el.getAttribute('data-indent') === 'true' ? '  ' : ''}${el.getAttribute('data-system')} ${el.getAttribute('data-group-count')}`,
        ),
      );
    };
    const kindCount = async (kind: string) =>
      /\((\d+)\)/.exec(await page.getByTestId(`system-kind-${kind}`).innerText())![1];

    // Spans are chosen first: all, then spans:all summed over the span systems (the count of the
    // Spans button), then those systems by type: the two databases under db:all, indented.
    let listed = await openList();
    await shot('01-system-picker-spans');
    expect(listed[0]).toMatch(/^all \d+$/);
    expect(listed[1]).toBe(`spans:all ${await kindCount('spans')}`);
    const dbAll = listed.findIndex((l) => l.startsWith('db:all '));
    expect(dbAll).toBeGreaterThan(1);
    expect(
      listed
        .slice(dbAll + 1, dbAll + 3)
        .map((l) => l.replace(/ \d+$/, ''))
        .sort(),
    ).toEqual(['  db:postgresql', '  db:redis']);
    expect(listed.some((l) => /log:|message:/.test(l))).toBe(false);
    for (const line of listed.filter((l) => l.startsWith('  ')))
      expect(
        listed.map((l) => l.split(' ')[0]),
        line,
      ).toContain(`${line.trim().split(':')[0]}:all`);
    await page.keyboard.press('Escape');

    // Events: events:all over the error logs, which are not indented under a log:all they are not in.
    await page.getByTestId('system-kind-events').click();
    await page.waitForURL((u) => u.searchParams.get('system') === 'events:all');
    listed = await openList();
    await shot('01-system-picker-events');
    expect(listed.slice(1)).toEqual([
      `events:all ${await kindCount('events')}`,
      expect.stringMatching(/^log:error \d+$/),
    ]);
    await page.keyboard.press('Escape');

    await page.getByTestId('system-kind-spans').click();
    await page.waitForURL((u) => u.searchParams.get('system') === 'spans:all');
    // A row selects only its system and closes the list; checkboxes add to the selection; a
    // <type>:all replaces it; ✕ goes back to the first system.
    const systemsInAddress = () => explore.url().searchParams.getAll('system').join(',');
    const option = (system: string) => page.locator(`[data-testid="system-option"][data-system="${system}"]`);
    await openList();
    await option('db:redis').click();
    await page.waitForURL(() => systemsInAddress() === 'db:redis');
    await expect.poll(() => options.count()).toBe(0);
    await openList();
    await option('db:postgresql').getByTestId('system-option-checkbox').click();
    await page.waitForURL(() => systemsInAddress() === 'db:redis,db:postgresql');
    await expect(page.getByTestId('system-picker-value').innerText()).resolves.toBe('db:redis, db:postgresql');
    await option('db:all').getByTestId('system-option-checkbox').click();
    await page.waitForURL(() => systemsInAddress() === 'db:all');
    await page.keyboard.press('Escape');
    await explore.waitForGroups();
    // The list of the systems before stays until the db:all answer replaces it.
    await expect
      .poll(async () => (await explore.groupNameTexts()).some((n) => /^(POST|GET) \/api/.test(n)))
      .toBe(false);
    const names = await explore.groupNameTexts();
    expect(names.some((n) => /SELECT|INSERT|GET/.test(n))).toBe(true);
    await page.getByTestId('system-picker').hover();
    await page.getByTestId('system-picker').getByTitle('Clear').click();
    await page.waitForURL(() => systemsInAddress() === 'all');
  });

  it("the Groups tab's first page draws its sparklines from the groups answer, no call a row; a column plotted later asks per row", async () => {
    explainFailures();
    const stats: string[] = [];
    const groups: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/group-stats')) stats.push(r.url());
      if (r.url().includes('/groups?')) groups.push(r.url());
    };
    await page.goto('about:blank');
    page.on('request', onRequest);
    try {
      await page.goto(`${t.lantern.baseUrl}/spans/1?system=all`);
      const rows = page.getByTestId('group-row');
      await rows.first().locator('[data-testid="sparkline"][data-drawn="true"]').waitFor();
      await page.waitForLoadState('networkidle');
      // The default query's first aggregate, the column plotted by default, comes with the groups.
      expect(groups.length).toBeGreaterThan(0);
      const asked = new URL(groups.at(-1)!).searchParams;
      expect([asked.getAll('stats_column'), asked.get('stats_rows')]).toEqual([['.count_per_min'], '15']);
      expect(stats).toEqual([]);
      const all = await rows.all();
      expect(all.length).toBeGreaterThan(1);
      for (const row of all) expect(await row.locator('[data-testid="sparkline"][data-drawn="true"]').count()).toBe(1);
      // Another column plotted: each row asks for its series, the groups are not asked again.
      const before = groups.length;
      await page.getByTestId('plotted-columns').click();
      await page.getByRole('option', { name: 'p50(.duration)' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => stats.length).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      expect(groups.length).toBe(before);
      await expect.poll(() => rows.first().locator('[data-testid="sparkline"][data-drawn="true"]').count()).toBe(2);
    } finally {
      page.off('request', onRequest);
    }
  });

  it("the span list adds the columns the group-by and aggregations name, with each span's value", async () => {
    explainFailures();
    const query = 'group by host.name | p50(.duration) | avg(db.statement) | max(.status_code)';
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, `/items?system=all&query=${encodeURIComponent(query)}`);
    await explore.spanRows.first().waitFor();
    const headers = (await page.getByTestId('span-column-header').allInnerTexts()).map((s) => s.trim());
    expect(headers).toEqual(['host.name', 'db.statement', '.status_code']);
    await shot('02-span-columns');

    // Each row shows the span's own values, as the span list API has them.
    const url = explore.url();
    const params = new URLSearchParams({
      system: 'all',
      query,
      sort_by: '.duration',
      sort_desc: 'true',
      page: '1',
      limit: '10',
    });
    params.set('time_gte', new Date(Date.now() - 3_600_000).toISOString());
    params.set('time_lt', new Date(Date.now() + 60_000).toISOString());
    const spans = (await api<SpansResponse>(`spans?${params}`)).spans;
    expect(url.pathname).toMatch(/\/items$/);
    const rows = await explore.spanRows.evaluateAll((trs) =>
      trs.map((tr) =>
        Object.fromEntries(
          Array.from(tr.querySelectorAll('[data-testid="span-column-value"]')).map((td) => [
            td.getAttribute('data-column'),
            td.textContent,
          ]),
        ),
      ),
    );
    expect(rows.length).toBe(spans.length);
    for (const [i, row] of rows.entries()) {
      expect(row['host.name']).toMatch(/-(prod|stg)-1$/);
      expect(row['.status_code']).toMatch(/^(ok|error|unset)$/);
      const s = spans[i];
      expect(row['host.name']).toBe(s.attrs['host.name']);
      expect(row['db.statement']).toBe((s.attrs['db.statement'] as string | undefined) ?? '–');
      expect(row['.status_code']).toBe(s.statusCode);
    }
  });

  it('timeseries group rows expand into their spans, one at a time', async () => {
    explainFailures();
    const query = 'group by service.name | per_min(count()) | p50(.duration)';
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, `/timeseries?system=all&query=${encodeURIComponent(query)}`);
    const rows = page.getByTestId('timeseries-group-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(1);
    const name = (await rows.first().locator('td').nth(1).innerText()).trim();
    const service = /service\.name="?([^"]+)"?/.exec(name)?.[1] ?? name;

    await rows.first().locator('td').nth(1).click();
    const spans = page.getByTestId('group-spans');
    await spans.getByTestId('span-list-row').first().waitFor();
    const chips = await spans
      .getByTestId('span-list-row')
      .evaluateAll((trs) => trs.map((tr) => tr.querySelector('[data-testid="span-chips"]')?.textContent ?? ''));
    expect(chips.length).toBeGreaterThan(0);
    for (const c of chips) expect(c).toContain(service);
    await shot('03-timeseries-expanded');

    // Another row replaces it; its toggle closes it.
    // Rows by their group: a refetch on a loaded machine can reorder them between two clicks.
    const rowOf = async (n: number) =>
      page.locator(
        `[data-testid="timeseries-group-row"][data-group-id="${await rows.nth(n).getAttribute('data-group-id')}"]`,
      );
    const first = await rowOf(0);
    const secondToggle = (await rowOf(1)).getByTestId('timeseries-group-expand');
    await secondToggle.click();
    await expect.poll(() => secondToggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => spans.count()).toBe(1);
    await expect.poll(() => first.getByTestId('timeseries-group-expand').getAttribute('aria-expanded')).toBe('false');
    await secondToggle.click();
    await expect.poll(() => spans.count()).toBe(0);
    // Ticking a checkbox picks plotted groups and does not expand the row.
    await rows.first().locator('input[type="checkbox"]').click();
    await expect.poll(() => spans.count()).toBe(0);
  });

  it('timeseries groups sort by a clicked column, the whole list before paging, and the address keeps the order', async () => {
    explainFailures();
    const query = 'group by .group_id | .count_per_min | p50(.duration)';
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, `/timeseries?system=spans:all&query=${encodeURIComponent(query)}`);
    const rows = page.getByTestId('timeseries-group-row');
    await rows.first().waitFor();
    const header = (column: string) => page.locator(`[data-testid="timeseries-sort"][data-column="${column}"]`);
    const shownValues = (column: string) =>
      page
        .locator(`[data-testid="timeseries-avg"][data-column="${column}"]`)
        .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    // The header a person sees the arrow on, and which way it points (aria-sort).
    const sortedBy = async () => {
      const sorted = page.locator('[data-testid="timeseries-header"][aria-sort]');
      return `${await sorted.getAttribute('data-column')} ${await sorted.getAttribute('aria-sort')}`;
    };
    const isSorted = (v: number[], desc: boolean) =>
      v.every((x, i) => i === 0 || (desc ? v[i - 1] >= x : v[i - 1] <= x));
    // More groups than one page holds, so paging shows whether the whole list was sorted.
    await page.getByTestId('timeseries-pager').waitFor();

    // By default: the first metric's average, highest first; the address stays as it was.
    expect(await sortedBy()).toBe('_avg_.count_per_min descending');
    const firstPage = await shownValues('.count_per_min');
    expect(isSorted(firstPage, true)).toBe(true);
    expect(explore.url().searchParams.get('sort_by')).toBeNull();
    await page.getByTestId('timeseries-pager').getByRole('button', { name: 'Go to page 2' }).click();
    await expect.poll(async () => (await shownValues('.count_per_min')).join()).not.toBe(firstPage.join());
    expect(Math.max(...(await shownValues('.count_per_min')))).toBeLessThanOrEqual(Math.min(...firstPage));

    // A click on p50 sorts by it, highest first, back on page 1, and the address says so.
    await header('_avg_p50(.duration)').click();
    await page.waitForURL((u) => u.searchParams.get('sort_by') === '_avg_p50(.duration)');
    expect(explore.url().searchParams.get('sort_desc')).toBe('1');
    await expect.poll(() => sortedBy()).toBe('_avg_p50(.duration) descending');
    await expect(page.getByTestId('timeseries-pager-text').innerText()).resolves.toMatch(/^1 - 9 of/);
    const slowest = await shownValues('p50(.duration)');
    expect(isSorted(slowest, true)).toBe(true);
    await shot('04-timeseries-sorted');

    // A second click reverses it: the fastest groups of the whole list come first.
    await header('_avg_p50(.duration)').click();
    await page.waitForURL((u) => u.searchParams.get('sort_desc') === '0');
    await expect.poll(async () => isSorted(await shownValues('p50(.duration)'), false)).toBe(true);
    const fastest = await shownValues('p50(.duration)');
    expect(fastest[0]).toBeLessThanOrEqual(Math.min(...slowest));

    // The address restores the order on reload.
    await page.reload();
    await rows.first().waitFor();
    await expect.poll(() => sortedBy()).toBe('_avg_p50(.duration) ascending');
    expect(await shownValues('p50(.duration)')).toEqual(fastest);
  });
});
