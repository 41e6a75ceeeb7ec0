import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { ExportResultCode } from '@opentelemetry/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import {
  FAST_ALERTING_ENV,
  PROJECT1_TOKEN,
  removeDataDir,
  signIn,
  startLantern,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { AlertListPage } from '@lantern/testkit/pages/AlertListPage';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { ExplorePage } from '@lantern/testkit/pages/ExplorePage';
import { SpanCard } from '@lantern/testkit/pages/SpanCard';
import { startHttpReceiver, type HttpReceiver } from '@lantern/testkit/receivers';

/**
 * The alert list and the alert card as a person uses them, after real failed spans went in over
 * OTLP and the server's own evaluator (on its own timer, at FAST_ALERTING_ENV's pace) turned them into alerts,
 * with a webhook channel delivering to a receiver in this test; and metric alerts of a backed-up
 * queue gauge and of a metric from the worker's spans, whose cards link to their monitor, and the
 * latter's to the spans of its time range.
 */
const ERRORS = ['POST /checkout', 'GET /cart', 'DELETE /orders/{id}', 'PUT /profile'];

describe('alerts screens', () => {
  let lantern: RunningLantern;
  let receiver: HttpReceiver;
  let browser: BrowserLease;
  let page: Page;
  let list: AlertListPage;
  let configDir: string;
  let cookie: string;
  const browserErrors: string[] = [];
  const api = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${lantern.baseUrl}/api/v1/projects/1${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Record<string, { id: number | string }>;
  };

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    // The webhook receiver listens on loopback, which the SSRF guard refuses unless allowed.
    configDir = mkdtempSync(join(tmpdir(), 'lantern-alerts-config-'));
    const config = join(configDir, 'lantern.yml');
    writeFileSync(config, 'notifications:\n  allow_networks: [loopback]\n');
    lantern = await startLantern({ env: { LANTERN_CONFIG: config, ...FAST_ALERTING_ENV } });
    cookie = await signIn(lantern.baseUrl);
    // The monitor form is another screen's: the channel and the monitor are made through the API.
    const { channel } = await api('POST', '/notification-channels/webhook', {
      name: 'Test hook',
      params: { url: `${receiver.url}/hook`, payload: '' },
    });
    await api('POST', '/monitors/error', { name: 'All errors', channelIds: [channel.id] });

    browser = await leaseBrowser();
    const context = await signedInContext(browser, lantern.baseUrl, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    list = new AlertListPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    await receiver?.close();
    if (lantern) removeDataDir(lantern.dataDir);
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${lantern.output().slice(-5000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      ),
    );

  /** One failed span per name, over OTLP/HTTP protobuf. */
  async function sendErrors(time: Date): Promise<void> {
    const t = createTestTracer('http-proto', {
      httpUrl: lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'shop',
    });
    for (const name of ERRORS) {
      const span = t.tracer.startSpan(name, {
        kind: SpanKind.SERVER,
        startTime: time,
        attributes: { 'http.request.method': name.split(' ')[0], 'http.route': name.split(' ')[1] },
      });
      span.recordException(new Error(`${name} failed`));
      span.setStatus({ code: SpanStatusCode.ERROR, message: `${name} failed` });
      span.end(new Date(time.getTime() + 12));
    }
    await t.shutdown();
    expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
  }

  it('starts empty with the default open filter, then lists the alerts of failed spans', async () => {
    explainFailures();
    await list.goto(lantern.baseUrl, 1);
    await list.empty.waitFor();
    await expect(list.empty.innerText()).resolves.toContain("You don't have alerts that match selected filters.");
    // The default filter is written into the address.
    await page.waitForURL(/attrs\.alert\.state=open/);
    await expect(list.tabs.allInnerTexts()).resolves.toEqual(['Alerts', 'Monitors', 'Channels', 'Email notifications']);
    await screenshot(page, 'alerts-01-empty');

    // Failed spans of a minute ago, sent now: the first scan 10 s after they arrived lists them.
    await sendErrors(new Date(Date.now() - 60_000));
    await list.reloadUntilRows(ERRORS.length, 170_000);
    expect((await list.names()).sort()).toEqual([...ERRORS].sort());
    await expect(list.pagerText.innerText()).resolves.toBe(`1 - ${ERRORS.length} of ${ERRORS.length}`);
    await expect(list.row('POST /checkout').getByTestId('alert-row-trigger').innerText()).resolves.toBe('1 occurrence');
    await expect(list.facetCounts('alert.state')).resolves.toEqual([`open ${ERRORS.length}`]);
    await screenshot(page, 'alerts-02-list');

    // Every alert reached the webhook receiver.
    await vi.waitFor(() => expect(receiver.on('/hook').length).toBeGreaterThanOrEqual(ERRORS.length), {
      timeout: 20_000,
      interval: 200,
    });
    expect(receiver.on('/hook').map((r) => (r.body as { eventName: string }).eventName)).toContain('created');
  }, 240_000);

  it('opens the alert card from a row, closes and reopens the alert, and shows its history', async () => {
    explainFailures();
    const card = await list.open('POST /checkout');
    await expect(card.title.innerText()).resolves.toBe('POST /checkout');
    await expect(card.breadcrumbs.innerText()).resolves.toMatch(/Alerts\s*>\s*POST \/checkout/);
    await card.dateRange.waitFor();
    await card.spanCard.waitFor();
    await expect(card.fact('occurrences').innerText()).resolves.toContain('1 occurrence');
    // What changed in the errors of the span's service, over the card's range (issue 38).
    const whatChanged = new URL(
      (await card.root.getByTestId('alert-what-changed').getAttribute('href'))!,
      lantern.baseUrl,
    );
    expect(whatChanged.pathname).toBe('/spans/1/timeseries');
    expect(whatChanged.searchParams.get('selection')).toBe('where .status_code = "error"');
    expect(whatChanged.searchParams.get('query')).toContain('where service.name = "shop"');
    expect(whatChanged.searchParams.get('time_gte')).toBeTruthy();
    expect(page.url()).toMatch(/[?&]alert=\d+/);
    // The created event was delivered to the webhook channel.
    await vi
      .waitFor(
        async () => {
          await card.root.getByTestId('alert-history').waitFor();
          await expect(card.events.first().getByTestId('alert-notification').getAttribute('data-state')).resolves.toBe(
            'sent',
          );
        },
        { timeout: 20_000, interval: 500 },
      )
      .catch(async () => {
        // The history loaded before the delivery: reload the card's data.
        await card.root.getByTestId('date-reload').click();
        await expect(card.events.first().getByTestId('alert-notification').getAttribute('data-state')).resolves.toBe(
          'sent',
        );
      });
    await expect(card.eventTexts()).resolves.toEqual(['Created']);
    await expect(card.events.first().innerText()).resolves.toContain('Test hook (webhook)');
    await screenshot(page, 'alerts-03-card');

    await card.closeButton.click();
    await card.reopenButton.waitFor();
    await expect(card.state()).resolves.toBe('closed');
    await vi.waitFor(async () => expect(await card.eventTexts()).toEqual(['Closed by Admin', 'Created']), {
      timeout: 10_000,
      interval: 200,
    });
    await card.reopenButton.click();
    await card.closeButton.waitFor();
    await vi.waitFor(
      async () => expect(await card.eventTexts()).toEqual(['Reopened by Admin', 'Closed by Admin', 'Created']),
      { timeout: 10_000, interval: 200 },
    );
    await screenshot(page, 'alerts-04-card-history');

    await page.keyboard.press('Escape');
    await card.root.waitFor({ state: 'detached' });
    await page.waitForURL((url) => !url.searchParams.has('alert'));
  });

  it('auto-refresh every 10 s: an alert closed and reopened elsewhere shows its new "Updated" without a reload (issue 41)', async () => {
    explainFailures();
    const row = list.row('DELETE /orders/{id}');
    await expect(row.innerText()).resolves.not.toContain('Updated');
    const alertId = Number(await row.getAttribute('data-alert-id'));
    // A marker in the page's window: a reload would drop it.
    await page.evaluate(() => Object.assign(window, { __sameLoad: true }));
    await page.getByTestId('auto-refresh').click();
    await page.getByTestId('auto-refresh-option').filter({ hasText: 'Every 10 s' }).click();
    await page.waitForURL((u) => u.searchParams.get('refresh') === '10s');
    try {
      // Another user closes and reopens it through the API: it stays open, with a later updatedAt.
      await api('PUT', '/alerts/closed', { alertIds: [alertId] });
      await api('PUT', '/alerts/open', { alertIds: [alertId] });
      await expect
        .poll(() => row.innerText(), { timeout: 30_000, interval: 500 })
        .toMatch(/Updated (just now|\d+ seconds? ago)/);
      await expect(page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad)).resolves.toBe(true);
      await screenshot(page, 'alerts-04b-auto-refresh');
    } finally {
      await page.getByTestId('auto-refresh').click();
      await page.getByTestId('auto-refresh-option').filter({ hasText: 'Off' }).click();
    }
  });

  it('closes a selection, closes all, filters by state, and deletes', async () => {
    explainFailures();
    await list.check('GET /cart').check();
    await list.check('PUT /profile').check();
    await expect(list.closeSelected.textContent()).resolves.toBe('Close (2)');
    await expect(list.deleteSelected.textContent()).resolves.toBe('Delete (2)');
    await list.closeSelected.click();
    await vi.waitFor(
      async () => expect((await list.names()).sort()).toEqual(['DELETE /orders/{id}', 'POST /checkout']),
      { timeout: 10_000, interval: 200 },
    );
    await expect(list.facetCounts('alert.state')).resolves.toEqual(['closed 2', 'open 2']);

    await list.closeAll.click();
    await list.confirmDialog().getByTestId('confirm-yes').click();
    await list.empty.waitFor();
    await screenshot(page, 'alerts-05-all-closed');

    // The closed ones, by the state facet; the address keeps the filter across a reload.
    await list.facetValue('alert.state', 'closed').click();
    await vi.waitFor(async () => expect(await list.rows.count()).toBe(ERRORS.length), {
      timeout: 10_000,
      interval: 200,
    });
    await page.waitForURL(/attrs\.alert\.state=closed/);
    await page.reload();
    await list.rows.first().waitFor();
    await expect(list.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')))).resolves.toEqual(
      ERRORS.map(() => 'closed'),
    );

    // Search narrows the list (after the debounce), and the address carries it.
    await list.search.fill('checkout');
    await vi.waitFor(async () => expect(await list.names()).toEqual(['POST /checkout']), {
      timeout: 10_000,
      interval: 200,
    });
    await page.waitForURL(/q=checkout/);
    await list.search.fill('');
    await vi.waitFor(async () => expect(await list.rows.count()).toBe(ERRORS.length), {
      timeout: 10_000,
      interval: 200,
    });

    await list.selectPage.check();
    await list.deleteSelected.click();
    const confirm = list.confirmDialog();
    await expect(confirm.innerText()).resolves.toContain('Do you really want to delete selected alerts?');
    await screenshot(page, 'alerts-06-delete-confirm');
    await confirm.getByTestId('confirm-yes').click();
    await list.empty.waitFor();
    await list.resetAll.click();
    await page.waitForURL(/attrs\.alert\.state=open/);
    await list.empty.waitFor();
  });

  it('lists an alert for an error logged by an application that sends only logs, and shows the log on its card', async () => {
    explainFailures();
    const l = createTestLogger('http-proto', {
      httpUrl: lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'mailer',
    });
    l.logger.emit({
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: 'smtp relay refused the message',
      attributes: { 'smtp.host': 'relay.internal' },
    });
    await l.shutdown();
    expect(l.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);

    await list.reloadUntilRows(1, 170_000);
    const [name] = await list.names();
    expect(name).toContain('smtp relay refused the message');
    const card = await list.open(name);
    const span = new SpanCard(page, card.root);
    await span.root.waitFor();
    await expect(span.title.innerText()).resolves.toContain('smtp relay refused the message');
    await expect(span.fact('service').innerText()).resolves.toContain('mailer');
    await vi.waitFor(async () => expect(await span.attrKeys()).toEqual(expect.arrayContaining(['smtp.host'])), {
      timeout: 10_000,
      interval: 200,
    });
    await screenshot(page, 'alerts-07-log-alert');
    await page.keyboard.press('Escape');
    await card.root.waitFor({ state: 'detached' });
  }, 240_000);

  it("shows a metric alert's card with 'View monitor', and 'Matching spans' (the spans of the card's range) over a metric from spans only", async () => {
    explainFailures();
    // Plain spans of the worker, for the span list of the alert's range and the metric from spans.
    const sendSpan = async () => {
      const t = createTestTracer('http-proto', {
        httpUrl: lantern.baseUrl,
        grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
        dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
        serviceName: 'worker',
      });
      t.tracer.startSpan('drain emails queue', { kind: SpanKind.CONSUMER }).end();
      await t.shutdown();
    };
    await sendSpan();
    // The queue stays backed up, and the worker busy, while the evaluator (5 s after each minute:
    // FAST_ALERTING_ENV) looks at the last minute.
    const m = createTestMeter('http-proto', {
      httpUrl: lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'worker',
    });
    m.meter.createObservableGauge('queue.depth').addCallback((r) => r.observe(42, { queue: 'emails' }));
    await m.flush();
    const keepSending = setInterval(() => void Promise.all([m.flush(), sendSpan()]), 5000);
    let queueMonitor: { id: number | string };
    let spansMonitor: { id: number | string };
    try {
      await vi.waitFor(
        async () => {
          const res = await fetch(`${lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie } });
          const names = ((await res.json()) as { metrics: { name: string }[] }).metrics.map((x) => x.name);
          expect(names).toEqual(expect.arrayContaining(['queue.depth', 'lantern.tracing.spans']));
        },
        { timeout: 20_000, interval: 200 },
      );
      // A gauge sent as a metric, and a metric derived from the worker's spans.
      queueMonitor = (
        await api('POST', '/monitors/metric', {
          name: 'Queue backlog',
          params: {
            metrics: [{ name: 'queue.depth', alias: 'depth' }],
            query: 'max($depth)',
            column: 'max($depth)',
            forDuration: 1,
            maxValue: 20,
          },
        })
      ).monitor;
      spansMonitor = (
        await api('POST', '/monitors/metric', {
          name: 'Busy worker',
          params: {
            metrics: [{ name: 'lantern.tracing.spans', alias: 'spans' }],
            query: 'count($spans) | where service.name = "worker"',
            column: 'count($spans)',
            forDuration: 1,
            maxValue: 0.5,
          },
        })
      ).monitor;
      await list.goto(lantern.baseUrl, 1, `?q=${encodeURIComponent(`monitor:${queueMonitor.id}`)}`);
      await list.reloadUntilRows(1, 200_000);
      await list.goto(lantern.baseUrl, 1, `?q=${encodeURIComponent(`monitor:${spansMonitor.id}`)}`);
      await list.reloadUntilRows(1, 120_000);
    } finally {
      clearInterval(keepSending);
      await m.shutdown();
    }

    // The queue's alert: its monitor, no spans to list (its attributes are not spans').
    await list.goto(lantern.baseUrl, 1, `?q=${encodeURIComponent(`monitor:${queueMonitor.id}`)}`);
    await list.rows.first().waitFor();
    const [queueAlert] = await list.names();
    expect(queueAlert).toContain('Queue backlog');
    const described = page.waitForResponse((r) => r.url().includes('/api/v1/metrics/1/describe'), { timeout: 15_000 });
    let card = await list.open(queueAlert);
    await card.root.getByTestId('alert-chart').waitFor();
    await described;
    await expect(card.viewMonitor.textContent()).resolves.toBe('View monitor');
    // Before, the link was there and listed every span of the range, unfiltered.
    expect(await card.matchingSpans.count()).toBe(0);
    await screenshot(page, 'alerts-08-metric-alert');
    await page.keyboard.press('Escape');
    await card.root.waitFor({ state: 'detached' });

    await list.goto(lantern.baseUrl, 1, `?q=${encodeURIComponent(`monitor:${spansMonitor.id}`)}`);
    await list.rows.first().waitFor();
    const [spansAlert] = await list.names();
    expect(spansAlert).toContain('Busy worker');
    card = await list.open(spansAlert);
    await card.root.getByTestId('alert-chart').waitFor();
    await expect(card.matchingSpans.textContent({ timeout: 15_000 })).resolves.toBe('Matching spans');

    // The link names every system, the span columns, the monitor's where part and the card's own time range.
    const href = new URL((await card.matchingSpans.getAttribute('href'))!, lantern.baseUrl);
    expect(href.pathname).toBe('/spans/1/items');
    expect(href.searchParams.get('system')).toBe('all');
    expect(href.searchParams.get('query')).toBe(
      '.count_per_min | .error_rate | {p50,p90,p99}(.duration) | where service.name = "worker"',
    );
    // The card's range: an hour around the alert's time.
    const gte = href.searchParams.get('time_gte')!;
    const dur = Number(href.searchParams.get('time_dur'));
    expect(dur).toBe(3600);
    const gteMs = Date.parse(gte.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)$/, '$1-$2-$3T$4:$5:$6Z'));
    const alertId = await card.root.getAttribute('data-alert-id');
    const res = await fetch(`${lantern.baseUrl}/api/v1/projects/1/alerts/${alertId}`, { headers: { cookie } });
    const updatedAt = Date.parse(((await res.json()) as { alert: { updatedAt: string } }).alert.updatedAt);
    expect(updatedAt).toBeGreaterThanOrEqual(gteMs);
    expect(updatedAt).toBeLessThan(gteMs + dur * 1000);

    // A click opens the span list of that range, with the worker's span in it.
    await card.matchingSpans.click();
    await page.waitForURL((url) => url.pathname === '/spans/1/items');
    const spans = new ExplorePage(page);
    await spans.spanRows.first().waitFor({ timeout: 20_000 });
    const url = new URL(page.url());
    // The card's hour usually ends about now: the page then shows it as the live last hour (an end
    // within 5 minutes of now reads as live) and writes it without its start. Else it stays fixed.
    const shownGte = url.searchParams.get('time_gte');
    if (shownGte === null) expect(Math.abs(gteMs + dur * 1000 - Date.now())).toBeLessThanOrEqual(6 * 60_000);
    else expect(shownGte).toBe(gte);
    expect(url.searchParams.get('time_dur')).toBe(String(dur));
    await expect(spans.spanRows.allInnerTexts()).resolves.toEqual(
      expect.arrayContaining([expect.stringContaining('drain emails queue')]),
    );
    await screenshot(page, 'alerts-09-matching-spans');
    expect(browserErrors).toEqual([]);
  }, 300_000);

  it('shows an error for an alert that does not exist, on the alert page', async () => {
    explainFailures();
    await page.goto(`${lantern.baseUrl}/alerting/1/alerts/999999`);
    const error = page.getByTestId('request-error');
    await error.waitFor();
    await expect(page.getByTestId('request-error-status').innerText()).resolves.toBe('404');
    await expect(page.getByTestId('request-error-message').innerText()).resolves.toBe('Alert "999999" not found.');
    await screenshot(page, 'alerts-10-not-found');
    expect(browserErrors).toEqual([]);
  });
});
