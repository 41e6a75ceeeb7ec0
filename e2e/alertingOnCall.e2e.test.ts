import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { createTestMeter } from '@lantern/testkit/otlpMetrics';
import { AlertListPage } from '@lantern/testkit/pages/AlertListPage';
import { screenshot } from '@lantern/testkit/pages/browser';
import { MonitorFormPage } from '@lantern/testkit/pages/MonitorFormPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { startHttpReceiver, type HttpReceiver } from '@lantern/testkit/receivers';
import { FAST_ALERTING_ENV } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * The alerting screens as an on-call engineer reads them, over real telemetry: a memory gauge in
 * bytes whose monitor form says what the preview saw and what a typed bound means in GB (and keeps
 * its preview readable on a 1024 px window), the error rate of a span group monitored from the
 * tracing Monitor menu as a percentage, the error monitor's matcher rows lined up, and an alert's
 * history that follows its notifications from "pending" to "sent" without a reload, and a channel's
 * test notification that never reports the saved URL's answer for a URL edited on the screen.
 */
const configDir = mkdtempSync(join(tmpdir(), 'lantern-alerting-oncall-'));
const config = join(configDir, 'lantern.yml');
// The webhook receiver listens on loopback, which the SSRF guard refuses unless allowed.
writeFileSync(config, 'notifications:\n  allow_networks: [loopback]\n');
const server = useLantern({
  env: { LANTERN_CONFIG: config, LANTERN_INGEST_FLUSH_INTERVAL_MS: '50', ...FAST_ALERTING_ENV },
});
const GiB = 2 ** 30;
let receiver: HttpReceiver;

async function api(method: string, path: string, body?: unknown): Promise<Record<string, { id: number }>> {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/projects/1${path}`, {
    method,
    headers: { cookie: server.cookie, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, { id: number }>;
}

/** process.memory.usage (OTLP unit 'By'): db-1 at 8 GiB, web-1 at 512 MiB; and 3 of 4 checkout spans failed. */
async function sendTelemetry(): Promise<void> {
  const m = createTestMeter('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'fleet',
  });
  m.meter.createObservableGauge('process.memory.usage', { unit: 'By' }).addCallback((r) => {
    r.observe(8 * GiB, { host: 'db-1' });
    r.observe(GiB / 2, { host: 'web-1' });
  });
  await m.flush();
  await m.shutdown();

  const t = createTestTracer('http-proto', {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
    serviceName: 'checkout',
  });
  const time = new Date(Date.now() - 60_000);
  for (let i = 0; i < 4; i++) {
    const span = t.tracer.startSpan('POST /pay', {
      kind: SpanKind.SERVER,
      startTime: time,
      attributes: { 'http.route': '/pay' },
    });
    if (i < 3) {
      span.recordException(new Error('card declined'));
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
    }
    span.end(new Date(time.getTime() + 20));
  }
  await t.shutdown();
  expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);

  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, { headers: { cookie: server.cookie } });
    const names = ((await res.json()) as { metrics: { name: string }[] }).metrics.map((x) => x.name);
    if (names.includes('process.memory.usage') && names.includes('lantern.tracing.spans')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('process.memory.usage never listed');
}

describe('alerting as on-call: units, layout, live history, channel tests', () => {
  const session = useSignedInPage(server, 'alerting-oncall', async () => {
    receiver = await startHttpReceiver();
    await sendTelemetry();
    const { channel } = await api('POST', '/notification-channels/webhook', {
      name: 'Pager hook',
      params: { url: `${receiver.url}/hook`, payload: '' },
    });
    await api('POST', '/monitors/error', { name: 'Checkout errors', channelIds: [channel.id] });
  });
  let page: Page;
  beforeAll(() => {
    page = session.page();
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('shows what a bytes monitor saw and what a typed bound means in GB', async () => {
    session.explainFailures();
    const q = new URLSearchParams({ metric: 'process.memory.usage', alias: 'mem', query: 'max($mem) | group by host' });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = new MonitorFormPage(page, 'metric').form;
    await form.getByTestId('monitor-chart').waitFor();
    await expect.poll(() => form.getByTestId('monitor-unit').inputValue()).toBe('bytes');
    // The observed range in GB / MB, with the number the field takes (it is in bytes).
    await expect
      .poll(() => form.getByTestId('monitor-observed-max').innerText())
      .toBe(`Observed max: 8 GB = ${8 * GiB}`);
    await expect(form.getByTestId('monitor-observed-min').innerText()).resolves.toBe(
      `Observed min: 512 MB = ${GiB / 2} (zeroes excluded)`,
    );
    // A typed bound is read back in the unit; an empty one says how to turn it off.
    await expect(form.getByTestId('monitor-max-helper').innerText()).resolves.toBe('Leave empty to disable');
    await form.getByTestId('monitor-max').fill(String(6 * GiB));
    await expect(form.getByTestId('monitor-max-helper').innerText()).resolves.toBe('= 6 GB');
    await form.getByTestId('monitor-min').fill('1048576');
    await expect(form.getByTestId('monitor-min-helper').innerText()).resolves.toBe('= 1 MB');
    await screenshot(page, 'alerting-oncall-01-bytes-form');
  });

  it('keeps the monitor preview readable: beside the form at 1280 px, under it at 1024, its legend never cut off', async () => {
    session.explainFailures();
    const q = new URLSearchParams({ metric: 'process.memory.usage', alias: 'mem', query: 'max($mem) | group by host' });
    try {
      for (const [width, place] of [
        [1280, 'beside'],
        [1024, 'under'],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
        const form = new MonitorFormPage(page, 'metric').form;
        await form.getByTestId('monitor-chart').waitFor();
        await form.getByTestId('legend-row').first().waitFor();
        const preview = page.getByTestId('monitor-preview');
        await expect
          .poll(async () => {
            const formBox = (await form.locator('.MuiCard-root').first().boundingBox())!;
            const previewBox = (await preview.boundingBox())!;
            return previewBox.y >= formBox.y + formBox.height ? 'under' : 'beside';
          })
          .toBe(place);
        const legend = preview.getByTestId('legend-table');
        const clipped = await legend.evaluate((table) => {
          const card = table.closest('[data-testid="monitor-preview"]')!.getBoundingClientRect();
          return Array.from(table.querySelectorAll('th, td')).some(
            (c) => c.getBoundingClientRect().right > card.right + 0.5,
          );
        });
        expect(clipped, `legend cut off at ${width} px`).toBe(false);
        // The date range picker keeps "1 hour" on one line.
        const period = page.getByTestId('date-range-picker').getByTestId('period-picker');
        await expect(period.evaluate((e) => e.getBoundingClientRect().height)).resolves.toBeLessThan(40);
        await screenshot(page, `alerting-oncall-02-bytes-form-${width}`, { fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it("monitors a span group's error rate from the tracing Monitor menu as a percentage", async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/spans/1?system=all`);
    const row = page.getByTestId('group-row').filter({ hasText: 'POST /pay' }).first();
    await row.getByTestId('monitor-menu').click();
    await page.getByRole('menuitem', { name: 'Monitor error rate' }).click();
    await page.waitForURL(/\/alerting\/1\/monitors\/new-metric\?/);
    const form = new MonitorFormPage(page, 'metric').form;
    await form.getByTestId('monitor-chart').waitFor();
    await expect.poll(() => form.getByTestId('monitor-column').inputValue()).toBe('err_rate');
    await expect.poll(() => form.getByTestId('monitor-unit').inputValue()).toBe('utilization');
    // 3 failed of 4: 75%, and the fraction the field takes.
    await expect.poll(() => form.getByTestId('monitor-observed-max').innerText()).toBe('Observed max: 75% = 0.75');
    await expect.poll(() => form.getByTestId('legend-row').first().innerText()).toMatch(/\t75%\t75%\t75%\t75%$/);
    await form.getByTestId('monitor-max').fill('0.25');
    await expect(form.getByTestId('monitor-max-helper').innerText()).resolves.toBe('= 25%');
    // The long error-rate query part wraps inside the form, its delete button in reach.
    const formRight = await form.evaluate((e) => e.getBoundingClientRect().right);
    for (const part of await form.getByTestId('query-part').all())
      await expect(part.evaluate((e) => e.getBoundingClientRect().right)).resolves.toBeLessThanOrEqual(formRight);
    await screenshot(page, 'alerting-oncall-03-error-rate');
  });

  it("lines up the error monitor's matcher rows", async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-error`);
    const form = new MonitorFormPage(page, 'error').form;
    await form.getByTestId('matcher-attr').first().fill('deployment.environment');
    await form.getByTestId('matcher-value').first().fill('prod');
    await expect.poll(() => form.getByTestId('matcher-row').count()).toBe(2);
    const xs = await form
      .getByTestId('matcher-row')
      .evaluateAll((rows) =>
        rows.map((r) => Math.round(r.querySelector('[data-testid="matcher-attr"]')!.getBoundingClientRect().x)),
      );
    expect(xs[0]).toBe(xs[1]);
    await screenshot(page, 'alerting-oncall-04-matchers');
  });

  it("follows an alert's notifications from pending to sent without a reload", async () => {
    session.explainFailures();
    const list = new AlertListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    // The failed spans of a minute ago become an alert on the error evaluator's first scan.
    await list.reloadUntilRows(1, 170_000);
    const card = await list.open('POST /pay');
    await card.closeButton.click();
    await card.reopenButton.waitFor();
    const closed = card.events.filter({ hasText: 'Closed by Admin' });
    await closed.waitFor();
    // The webhook gets the close within a second or two; the history shows it without the reload button.
    await vi.waitFor(
      () => expect(receiver.on('/hook').some((r) => JSON.stringify(r.body).includes('closed'))).toBe(true),
      {
        timeout: 20_000,
        interval: 200,
      },
    );
    await expect
      .poll(
        () => closed.getByTestId('alert-notification').filter({ hasText: 'Pager hook' }).getAttribute('data-state'),
        {
          timeout: 10_000,
        },
      )
      .toBe('sent');
    await screenshot(page, 'alerting-oncall-05-history-sent');
  }, 240_000);

  it("tests the channel as saved: with unsaved edits it asks for a save, then reports the new URL's failure", async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/channels`);
    await page.getByRole('link', { name: 'Pager hook' }).click();
    await page.waitForURL(/\/channels\/webhook\/\d+$/);
    const send = page.getByTestId('channel-test-send');
    await expect(send.isEnabled()).resolves.toBe(true);
    // A URL typed but not saved: the test would go to the saved one and say "Delivered".
    await page.getByTestId('channel-url').fill('http://127.0.0.1:1/nothing');
    await expect(send.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('channel-test-unsaved').innerText()).resolves.toBe(
      'The test sends the saved channel: save your changes to test them.',
    );
    await screenshot(page, 'alerting-oncall-06-channel-unsaved');
    await page.getByTestId('channel-save').click();
    await expect(page.getByTestId('snackbar').innerText()).resolves.toContain(
      'The notification channel has been saved',
    );
    await expect.poll(() => send.isEnabled()).toBe(true);
    await expect(page.getByTestId('channel-test-unsaved').count()).resolves.toBe(0);
    await send.click();
    await expect(page.getByTestId('channel-test-result').getAttribute('data-ok')).resolves.toBe('false');
    await expect(page.getByTestId('channel-test-title').innerText()).resolves.toBe('Not delivered (no answer)');
    await screenshot(page, 'alerting-oncall-07-channel-test-failed');
  });
});
