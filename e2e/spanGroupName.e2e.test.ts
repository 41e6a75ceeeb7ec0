import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { SpanCard } from '@lantern/testkit/pages/SpanCard';
import { TracePage } from '@lantern/testkit/pages/TracePage';
import { screenshot } from '@lantern/testkit/pages/browser';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { sendOtlpLogs } from '@lantern/testkit/tracingData';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The span card's breadcrumb names the row's group as the groups list does (its template), not the
 * row's own text, and links to that group's spans. Logs go in over real OTLP/HTTP: three payments
 * declined, one with a hex id (`9f3a2b1c`, sent first), one with a hex id that has no letter
 * (`12345678`) and one with a number: one group (its id hashes words only), one name.
 */
describe('span card breadcrumb: the group, not the row', () => {
  const t = useLantern();
  const messages = ['payment 9f3a2b1c declined', 'payment 12345678 declined', 'payment 4407 declined'];
  const GROUP = 'ERROR payment <num> declined';
  const STATEMENT = 'SELECT * FROM orders WHERE id = 1001';
  let traceId = '';
  const ui = useSignedInPage(t, 'span-group-name', async () => {
    // A trace with a db span: its row's text is the statement, its group's name the template.
    const tracer = createTestTracer('http-json', {
      httpUrl: t.lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${t.lantern.grpcPort}`,
      dsn: t.dsn,
      serviceName: 'checkout',
    });
    const root = tracer.tracer.startSpan('POST /checkout', { kind: SpanKind.SERVER });
    traceId = root.spanContext().traceId;
    tracer.tracer
      .startSpan(
        'SELECT orders',
        { kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql', 'db.statement': STATEMENT } },
        trace.setSpan(context.active(), root),
      )
      .end();
    root.end();
    await tracer.shutdown();

    const now = Date.now();
    const logRecords = messages.map((body, i) => ({
      timeUnixNano: String((now - (messages.length - i) * 1000) * 1e6),
      severityText: 'ERROR',
      body: { stringValue: body },
    }));
    // One request per record, in order: the first row stored is the hex one.
    for (const record of logRecords) {
      await sendOtlpLogs(t.lantern.baseUrl, t.dsn, 'billing', [record]);
    }
  });
  let page: Page;
  const explainFailures = () => {
    page = ui.page();
    ui.explainFailures();
  };

  it("opening a log from its group: the breadcrumb names the group and lists the group's logs", async () => {
    explainFailures();
    const explore = new ExplorePage(page);
    await explore.goto(t.lantern.baseUrl, 1, '?system=log:error');
    const group = explore.groupRows.filter({ hasText: 'payment' });
    await expect.poll(() => group.getByTestId('group-name').allInnerTexts(), { timeout: 20_000 }).toEqual([GROUP]);

    // The group's rows keep their own text; one opens in the span card.
    await group.click();
    const rows = page.getByTestId('group-spans').getByTestId('span-list-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    await rows.filter({ hasText: 'payment 12345678 declined' }).click();
    const dialog = page.getByTestId('span-dialog');
    const card = new SpanCard(page, dialog);
    await expect(card.title.innerText()).resolves.toBe('ERROR payment 12345678 declined');
    // system > group > Span: the middle link is the group's name, not the row's text.
    const crumbs = dialog.getByTestId('span-breadcrumbs').getByRole('link');
    await expect(crumbs.allInnerTexts()).resolves.toEqual(['log:error', GROUP, 'Span']);
    const crumb = crumbs.nth(1);
    await screenshot(page, 'span-group-name-01-dialog-breadcrumb');

    // The breadcrumb lists the group's logs: all three, each with its own text.
    await crumb.click();
    await page.waitForURL(/\/spans\/1\/items\?/);
    await expect
      .poll(async () =>
        (await explore.spanRows.getByTestId('span-list-name').allInnerTexts()).map((s) => s.trim()).sort(),
      )
      .toEqual(messages.map((m) => `ERROR ${m}`).sort());

    // The span page (the span endpoint) names the group too.
    await explore.spanRows.filter({ hasText: 'payment 9f3a2b1c declined' }).click();
    await page.getByTestId('span-dialog').getByTestId('span-breadcrumbs').getByText('Span', { exact: true }).click();
    await page.waitForURL(/\/traces\/1\/[0-9a-f]{32}\/\d+/);
    // The dialog closes on the way: what follows is the span page's own card.
    await page.getByTestId('span-dialog').waitFor({ state: 'detached' });
    const spanPage = new SpanCard(page);
    await expect.poll(() => spanPage.title.innerText(), { timeout: 15_000 }).toBe('ERROR payment 9f3a2b1c declined');
    await expect(page.getByTestId('span-breadcrumbs').getByRole('link').allInnerTexts()).resolves.toEqual([
      'log:error',
      GROUP,
      'Span',
    ]);
    await screenshot(page, 'span-group-name-02-span-page');
  });

  it("opening a db span from the trace's timeline: the breadcrumb names the group, not the statement", async () => {
    explainFailures();
    const tracePage = new TracePage(page);
    await page.goto(`${t.lantern.baseUrl}/traces/1/${traceId}`);
    await tracePage.waitForTrace();
    await expect.poll(() => tracePage.spanNameTexts(), { timeout: 15_000 }).toContain(STATEMENT);
    await tracePage.openSpan(STATEMENT);
    await expect(new SpanCard(page, tracePage.dialog).title.innerText()).resolves.toBe(STATEMENT);
    await expect(tracePage.dialog.getByTestId('span-breadcrumbs').getByRole('link').allInnerTexts()).resolves.toEqual([
      'db:postgresql',
      'SELECT * FROM orders WHERE id = ?',
      traceId,
      'Span',
    ]);
    await screenshot(page, 'span-group-name-03-trace-dialog-breadcrumb');
  });
});
