import { SeverityNumber } from '@opentelemetry/api-logs';
import { SpanKind } from '@opentelemetry/api';
import type { Page } from 'playwright-core';
import type { SystemsResponse } from '@lantern/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { screenshot, signedInPage, type BrowserLease } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { TopBar } from '@lantern/testkit/pages/TopBar';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Issue 20 (items 4, 7): the top-bar search finds logs by the words of their message and lands on
 * the log groups; the query builder's Agg, Group by and Where menus offer the keys that fit (numeric
 * keys with `.duration` for p50, group keys for group by, every span field for where), asked from
 * attr-keys with func / kind / with_columns. Spans and OTel SDK logs go in over real OTLP/HTTP.
 */
describe('top-bar search and query builder keys', () => {
  const t = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
  let browser: BrowserLease;
  let page: Page;
  const browserErrors: string[] = [];
  const shot = (name: string) => screenshot(page, `search-builder-${name}`);

  beforeAll(async () => {
    const opts = { httpUrl: t.lantern.baseUrl, grpcUrl: `http://127.0.0.1:${t.lantern.grpcPort}`, dsn: t.dsn };
    const tracer = createTestTracer('http-proto', { ...opts, serviceName: 'shop' });
    for (let i = 0; i < 8; i++) {
      const s = tracer.tracer.startSpan('GET /cart', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'GET', 'http.route': '/cart', 'cart.items': i, 'enduser.id': `u${i % 3}` },
      });
      s.end();
    }
    await tracer.shutdown();
    const logger = createTestLogger('http-proto', { ...opts, serviceName: 'billing' });
    for (let i = 0; i < 5; i++)
      logger.logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: `ledger ${i} reconciled` });
    await logger.shutdown();
    const range = `time_gte=${new Date(Date.now() - 3_600_000).toISOString()}&time_lt=${new Date(Date.now() + 120_000).toISOString()}`;
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${t.lantern.baseUrl}/api/v1/tracing/1/systems?${range}`, {
        headers: { cookie: t.cookie },
      });
      const systems = ((await res.json()) as SystemsResponse).systems;
      if (systems.some((s) => s.system.startsWith('log:')) && systems.some((s) => s.system.startsWith('http:'))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    ({ browser, page } = await signedInPage(t.lantern.baseUrl, browserErrors));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${t.lantern.output().slice(-5000)}\n--- browser ---\n${browserErrors.join('\n')}`,
      ),
    );

  it('a search for words of a log message lands on the log groups and lists the logs', async () => {
    explainFailures();
    const top = new TopBar(page);
    // The overview has written its address (range, systems) before the search leaves it.
    await expect.poll(() => new URL(page.url()).searchParams.has('system'), { timeout: 10_000 }).toBe(true);
    await top.searchFor('Reconciled');
    const query = () => new URL(page.url()).searchParams.get('query') ?? '';
    await expect.poll(query, { timeout: 10_000 }).toContain('"Reconciled"');
    const explore = new ExplorePage(page);
    expect(explore.url().searchParams.get('system')).toBe('log:all');
    expect(explore.url().searchParams.get('query')).toContain('log.message');
    await explore.waitForGroups();
    // Only the log groups of the search: each named by its templated message.
    await expect.poll(() => explore.groupNameTexts(), { timeout: 10_000 }).toEqual(['INFO ledger <num> reconciled']);
    await expect(top.search.inputValue()).resolves.toBe('');
    await shot('01-log-search');
  });

  it('a search for a span name lands on all systems', async () => {
    explainFailures();
    await new TopBar(page).searchFor('/cart');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('query') ?? '', { timeout: 10_000 })
      .toContain('"/cart"');
    const explore = new ExplorePage(page);
    expect(explore.url().searchParams.get('system')).toBe('all');
    await expect.poll(() => explore.groupNameTexts(), { timeout: 10_000 }).toEqual(['GET /cart']);
  });

  /** The options an autocomplete offers once `expected` is among them (opened with the keyboard). */
  const options = async (input: string, expected: string) => {
    await page.getByTestId(input).focus();
    await page.keyboard.press('ArrowDown');
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: expected, exact: true }).waitFor();
    const texts = (await listbox.getByRole('option').allInnerTexts()).map((x) => x.trim());
    await page.keyboard.press('Escape');
    return texts;
  };

  it('Agg offers .duration and numeric keys for p50, any key for uniq; Group by offers group keys; Where every span field', async () => {
    explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, '?system=all');
    await expect.poll(() => new URL(page.url()).searchParams.has('query'), { timeout: 10_000 }).toBe(true);

    const agg = await explore.openMenu('agg');
    await agg.getByTestId('agg-func').fill('p50');
    await page.getByRole('option', { name: 'p50(...)' }).click();
    const numeric = await options('agg-column', '.duration');
    expect(numeric).toEqual(expect.arrayContaining(['.duration', '.event_count', 'cart.items']));
    for (const bad of ['service.name', 'http.route', 'enduser.id', '.name', '.count'])
      expect(numeric).not.toContain(bad);

    await agg.getByTestId('agg-func').fill('uniq');
    await page.getByRole('option', { name: 'uniq(...)' }).click();
    const any = await options('agg-column', 'enduser.id');
    expect(any).toEqual(expect.arrayContaining(['enduser.id', 'service.name', '.trace_id']));
    expect(any).not.toContain('.count');
    await page.getByTestId('agg-column').fill('.duration');
    await page.getByTestId('agg-column').press('Escape');
    await agg.getByTestId('agg-apply').click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('query') ?? '', { timeout: 10_000 })
      .toContain('uniq(.duration)');
    await page.keyboard.press('Escape');

    const group = await explore.openMenu('group-by');
    const groups = await options('group-column', 'service.name');
    expect(groups).toEqual(expect.arrayContaining(['service.name', 'enduser.id', '.system', '.name']));
    for (const bad of ['.duration', '.count', '.time']) expect(groups).not.toContain(bad);
    await page.keyboard.press('Escape');
    await group.waitFor({ state: 'hidden' });

    await explore.openMenu('where');
    const where = await options('where-column', '.duration');
    await shot('03-where-columns');
    expect(where).toEqual(expect.arrayContaining(['.duration', '.count', 'service.name', 'cart.items']));
    await page.keyboard.press('Escape');
    expect(browserErrors).toEqual([]);
  });
});
