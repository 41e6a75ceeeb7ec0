import { SeverityNumber } from '@opentelemetry/api-logs';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Page } from 'playwright-core';
import type { SpansResponse } from '@lantern/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { screenshot, signedInPage, type BrowserLease } from '@lantern/testkit/pages/browser';
import { SpanCard } from '@lantern/testkit/pages/SpanCard';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The span card as an engineer reads it while debugging a failed checkout, with data from the
 * OpenTelemetry SDK over OTLP/HTTP: a log whose body carries a stack trace keeps its lines; a log
 * record shows its severity, not a span's kind, status and a '0' duration; a consumer span lists
 * its link to the producer in another trace and the link opens that span; the Events list keeps
 * a long system name on one line.
 */
describe('span card details: multi-line values, log facts, span links', () => {
  const t = useLantern({ env: { LANTERN_INGEST_FLUSH_INTERVAL_MS: '50' } });
  let browser: BrowserLease;
  let page: Page;
  const browserErrors: string[] = [];
  const stack = [
    'Error: card declined: insufficient funds',
    '    at PaymentService.charge (/app/src/payments/service.ts:142:11)',
    '    at async CheckoutHandler.placeOrder (/app/src/checkout/handler.ts:88:5)',
  ].join('\n');
  let producerTraceId = '';
  let consumerTraceId = '';
  let reportTraceId = '';

  const spans = async (query: string, system: string): Promise<SpansResponse['spans']> => {
    const range = `time_gte=${new Date(Date.now() - 3_600_000).toISOString()}&time_lt=${new Date(Date.now() + 120_000).toISOString()}`;
    const res = await fetch(
      `${t.lantern.baseUrl}/api/v1/tracing/1/spans?${range}&system=${encodeURIComponent(system)}&query=${encodeURIComponent(query)}`,
      { headers: { cookie: t.cookie } },
    );
    return ((await res.json()) as SpansResponse).spans;
  };

  beforeAll(async () => {
    const opts = {
      httpUrl: t.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${t.lantern.grpcPort}`,
      dsn: t.dsn,
      timeoutMillis: 30_000,
    };
    const checkout = createTestTracer('http-proto', { ...opts, serviceName: 'checkout' });
    const worker = createTestTracer('http-proto', { ...opts, serviceName: 'email-worker' });
    const logs = createTestLogger('http-proto', { ...opts, serviceName: 'checkout' });
    const now = Date.now() - 60_000;

    // A failed order: the server span, its error log with the stack trace in the body.
    const order = checkout.tracer.startSpan('POST /orders', {
      kind: SpanKind.SERVER,
      startTime: now,
      attributes: { 'http.request.method': 'POST', 'http.route': '/orders', 'http.response.status_code': 502 },
    });
    order.setStatus({ code: SpanStatusCode.ERROR, message: 'payment failed' });
    logs.logger.emit({
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: `charge failed for order 7\n${stack}`,
      timestamp: now + 5,
      context: trace.setSpan(context.active(), order),
    });
    order.end(now + 40);

    // Inventory reads, 10 ms to 250 ms: three pages of spans.
    for (let i = 1; i <= 25; i++) {
      checkout.tracer
        .startSpan('GET /items', {
          kind: SpanKind.SERVER,
          startTime: now + i * 1000,
          attributes: { 'http.request.method': 'GET', 'http.route': '/items' },
        })
        .end(now + i * 1000 + i * 10);
    }

    // Last night's report: a trace three hours old, outside the default last hour.
    const report = checkout.tracer.startSpan('GET /report', {
      kind: SpanKind.SERVER,
      startTime: now - 3 * 3_600_000,
      attributes: { 'http.request.method': 'GET', 'http.route': '/report' },
    });
    checkout.tracer
      .startSpan(
        'SELECT report',
        { kind: SpanKind.CLIENT, startTime: now - 3 * 3_600_000 + 5, attributes: { 'db.system': 'postgresql' } },
        trace.setSpan(context.active(), report),
      )
      .end(now - 3 * 3_600_000 + 900);
    report.end(now - 3 * 3_600_000 + 1000);
    reportTraceId = report.spanContext().traceId;

    // A published message, and the worker that processes it later in a trace of its own, linked back.
    const publish = checkout.tracer.startSpan('orders publish', {
      kind: SpanKind.PRODUCER,
      startTime: now + 100,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
    });
    publish.end(now + 103);
    producerTraceId = publish.spanContext().traceId;
    const consume = worker.tracer.startSpan('orders process', {
      kind: SpanKind.CONSUMER,
      root: true,
      startTime: now + 500,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
      links: [{ context: publish.spanContext(), attributes: { 'messaging.message.id': 'msg-42' } }],
    });
    consume.addEvent('cache miss', { 'cache.key': 'template:order-confirmation' }, now + 510);
    consume.end(now + 700);
    consumerTraceId = consume.spanContext().traceId;

    await Promise.all([checkout.shutdown(), worker.shutdown(), logs.shutdown()]);
    for (let i = 0; i < 100; i++) {
      const [logRows, consumers] = await Promise.all([
        spans('', 'log:error'),
        spans("where .kind = 'consumer'", 'messaging:kafka'),
      ]);
      if (logRows.length > 0 && consumers.length > 0) break;
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

  it("a log record's card: its severity instead of kind, status and duration; the stack trace keeps its lines", async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=log:error`);
    const row = page.getByTestId('span-list-row').filter({ hasText: 'charge failed for order 7' });
    await row.click();
    const card = new SpanCard(page, page.getByTestId('span-dialog'));
    await card.title.waitFor();
    await expect(card.root.getByTestId('header-severity').innerText()).resolves.toContain('ERROR');
    await expect(card.fact('kind').count()).resolves.toBe(0);
    await expect(card.fact('status').count()).resolves.toBe(0);
    await expect(card.fact('duration').count()).resolves.toBe(0);
    await expect(card.fact('service').innerText()).resolves.toContain('checkout');
    // The body's lines as sent: one per frame, not run together into one long line.
    const message = card.root.locator('[data-testid="attr-row"][data-key="log.message"]');
    const text = await message.locator('td').nth(1).innerText();
    expect(text).toContain('charge failed for order 7\nError: card declined: insufficient funds\n');
    expect(text).toContain('\n    at async CheckoutHandler.placeOrder');
    await screenshot(page, 'span-details-01-log-card', { fullPage: false });
    await page.keyboard.press('Escape');
  });

  it("'View trace' on a log opens its trace at the span the log was written in; Back returns to the logs", async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=log:error`);
    await page.getByTestId('span-list-row').filter({ hasText: 'charge failed for order 7' }).click();
    const card = new SpanCard(page, page.getByTestId('span-dialog'));
    await card.root.getByTestId('view-trace').click();
    await page.getByTestId('trace-page').waitFor();
    // The log's span is the one tinted (and scrolled to): the reader sees where the log happened.
    const focused = page.locator('[data-testid="span-row"][data-focused]');
    await expect.poll(() => focused.count(), { timeout: 10_000 }).toBe(1);
    await expect(focused.getByTestId('span-name').innerText()).resolves.toContain('POST /orders');
    await screenshot(page, 'span-details-04-log-to-trace', { fullPage: false });
    // A search takes the focus; clearing it gives it back.
    const search = page.getByPlaceholder('Find spans by name or attribute value');
    await search.fill('no such span');
    await expect.poll(() => focused.count()).toBe(0);
    await search.fill('');
    await expect.poll(() => focused.count()).toBe(1);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/spans/1/items');
    await page.getByTestId('span-list-row').filter({ hasText: 'charge failed for order 7' }).waitFor();
  });

  it("a consumer span's card lists its link to the producer; the link opens the producer span", async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/traces/1/${consumerTraceId}`);
    await page.getByTestId('span-name').filter({ hasText: 'orders process' }).first().click();
    const card = new SpanCard(page, page.getByTestId('span-dialog'));
    await card.title.waitFor();
    // A span (not a log): kind, status and duration are its facts.
    await expect(card.fact('kind').innerText()).resolves.toContain('consumer');
    await expect(card.fact('duration').innerText()).resolves.toContain('200ms');
    await card.root.getByTestId('span-tab-links').click();
    await expect(card.root.getByTestId('span-tab-links').innerText()).resolves.toMatch(/^links \(1\)$/i);
    const link = card.root.getByTestId('link-panel');
    await expect(link.innerText()).resolves.toContain('messaging.message.id');
    await expect(link.innerText()).resolves.toContain('msg-42');
    await expect(link.getByTestId('link-trace').innerText()).resolves.toContain(producerTraceId);
    await screenshot(page, 'span-details-02-links', { fullPage: false });
    await link.getByTestId('link-span').click();
    await page.waitForURL(new RegExp(`/traces/1/${producerTraceId}/\\d+`));
    // The dialog closes on the route change; the span page shows the producer's card.
    await expect.poll(() => page.getByTestId('span-dialog').count(), { timeout: 10_000 }).toBe(0);
    const producer = new SpanCard(page);
    await expect.poll(() => producer.title.innerText(), { timeout: 10_000 }).toBe('orders publish');
    await expect(producer.fact('kind').innerText()).resolves.toContain('producer');
    // Back returns to the consumer's trace.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe(`/traces/1/${consumerTraceId}`);
    await page.getByTestId('span-name').filter({ hasText: 'orders process' }).first().waitFor();
  });

  it('a narrower query on page 3 of the span list starts again at page 1 and lists its spans', async () => {
    explainFailures();
    await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=http:checkout`);
    await page.getByTestId('span-list-row').first().waitFor();
    await expect(page.getByTestId('spans-count').innerText()).resolves.toBe('26 spans');
    await page.getByTestId('spans-pager').getByText('3', { exact: true }).click();
    await expect.poll(() => page.getByTestId('span-list-row').count()).toBe(6);
    await page.getByTestId('qb-edit').click();
    const editor = page.locator('textarea:visible').first();
    await editor.fill('where .duration > 200ms');
    await editor.press('Enter');
    await expect.poll(() => page.getByTestId('spans-count').innerText()).toBe('5 spans');
    // The five slowest reads are listed, not 'There are no matching spans' on a page past the end.
    await expect.poll(() => page.getByTestId('span-list-row').count()).toBe(5);
    await expect(page.getByTestId('spans-empty').count()).resolves.toBe(0);
    await expect(page.getByTestId('spans-pager').innerText()).resolves.toContain('1 - 5 of 5');
    await screenshot(page, 'span-details-05-narrowed-query');
  });

  it("an old trace's 'Explore trace' and 'View group' open at the trace's time, not the last hour", async () => {
    explainFailures();
    const trace = new TracePage(page);
    await trace.goto(t.lantern.baseUrl, 1, reportTraceId);
    await page.getByTestId('explore-trace').click();
    await page.getByTestId('group-row').first().waitFor();
    await expect.poll(() => page.getByTestId('group-name').allInnerTexts()).toHaveLength(2);
    await screenshot(page, 'span-details-06-explore-old-trace');
    await page.goBack();
    await page.getByTestId('view-group').click();
    await page.getByTestId('span-list-row').first().waitFor();
    await expect(page.getByTestId('span-list-name').allInnerTexts()).resolves.toEqual(['GET /report']);
  });

  it('the Events list at 1024 px keeps each system name on one line', async () => {
    explainFailures();
    await page.setViewportSize({ width: 1024, height: 800 });
    try {
      await page.goto(`${t.lantern.baseUrl}/spans/1/items?system=events:all`);
      // The long log line (its body has a stack trace) takes the width the system column gets.
      await page.getByTestId('span-list-row').filter({ hasText: 'charge failed for order 7' }).waitFor();
      const system = page.getByTestId('span-list-row').getByRole('link', { name: 'other-events' }).first();
      // A wrapped link has one box per line.
      const lines = await system.evaluate((a) => a.getClientRects().length);
      expect(lines).toBe(1);
      await screenshot(page, 'span-details-03-events-1024');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });
});
