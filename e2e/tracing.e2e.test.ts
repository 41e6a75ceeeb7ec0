import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_LOGIN, removeDataDir, signIn, startLantern, type RunningLantern } from './harness';
import { launchBrowser, screenshot } from './pages/browser';
import { LoginPage } from './pages/LoginPage';
import { SpanCard } from './pages/SpanCard';
import { TracePage } from './pages/TracePage';
import { sendTracingData, spansOf, type TracingData } from './tracingData';

/**
 * The tracing screens as a person uses them, against the real server with data sent over real
 * OTLP/HTTP: the trace timeline, Explore spans, the span card, the Overview and Getting started.
 */
describe('tracing screens', () => {
  let lantern: RunningLantern;
  let browser: Browser;
  let page: Page;
  let data: TracingData;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    lantern = await startLantern();
    const cookie = await signIn(lantern.baseUrl);
    const project = (await (await fetch(`${lantern.baseUrl}/api/v1/projects/1`, { headers: { cookie } })).json()) as { http: { dsn: string } };
    data = await sendTracingData(lantern.baseUrl, project.http.dsn);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    const login = new LoginPage(page);
    await login.goto(lantern.baseUrl);
    await login.signIn(DEFAULT_LOGIN.email, DEFAULT_LOGIN.password);
    await page.waitForURL(/\/overview\/\d+/);
  });

  const explainFailures = () => onTestFailed(() => console.error(`--- Lantern output ---\n${lantern.output().slice(-5000)}\n--- browser errors ---\n${browserErrors.join('\n')}`));

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
    await trace.toggles.first().click();
    await expect(trace.rows.count()).resolves.toBe(1);
    await trace.toggles.first().click();
    await trace.rows.nth(5).waitFor();
    const toggleMs = Date.now() - toggleStart;
    console.log(`10,000-span trace: load ${loadMs} ms, scroll to end ${scrollMs} ms, collapse+expand ${toggleMs} ms`);
    expect(toggleMs).toBeLessThan(5000);
    await screenshot(page, 'tracing-04-big-trace', { fullPage: false });
  });
});
