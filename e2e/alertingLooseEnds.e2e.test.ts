import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { createTestMeter, type TestMeter } from '@lantern/testkit/otlpMetrics';
import { AlertListPage } from '@lantern/testkit/pages/AlertListPage';
import { screenshot } from '@lantern/testkit/pages/browser';
import { ChannelListPage } from '@lantern/testkit/pages/ChannelListPage';
import { MonitorFormPage } from '@lantern/testkit/pages/MonitorFormPage';
import { MonitorListPage } from '@lantern/testkit/pages/MonitorListPage';
import { useSignedInPage } from '@lantern/testkit/pages/session';
import { FAST_ALERTING_ENV } from '@lantern/testkit/harness';
import { useLantern } from '@lantern/testkit/useLantern';

/**
 * Loose ends of the alerting screens, used the way a person meets them in a first hour, over real
 * telemetry and the server's own one-minute evaluator: a closed metric alert that says it was
 * closed and when, its trigger kept as history ('Fired when'), not as what fires now; the error
 * monitor form and the e-mail settings suggesting the span attribute keys and values for their
 * matchers; the monitor list's last activity as "N seconds ago" with the date in a tooltip; and a
 * channel's delete confirmation naming the monitors that notify through it, which keep running
 * without it.
 */
const configDir = mkdtempSync(join(tmpdir(), 'lantern-alerting-loose-ends-'));
const config = join(configDir, 'lantern.yml');
// The webhook receiver would listen on loopback, which the SSRF guard refuses unless allowed.
writeFileSync(config, 'notifications:\n  allow_networks: [loopback]\n');
const server = useLantern({
  env: { LANTERN_CONFIG: config, LANTERN_INGEST_FLUSH_INTERVAL_MS: '50', ...FAST_ALERTING_ENV },
});
let meter: TestMeter | undefined;
let keepSending: ReturnType<typeof setInterval> | undefined;
let queueMonitorId = '';

async function api<T = Record<string, { id: number | string }>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.lantern.baseUrl}/api/v1/projects/1${path}`, {
    method,
    headers:
      body === undefined ? { cookie: server.cookie } : { cookie: server.cookie, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

/** Failed checkout spans of gold and free customers, and a queue 159 deep against a monitor's 100. */
async function setUp(): Promise<void> {
  const urls = {
    httpUrl: server.lantern.baseUrl,
    grpcUrl: `http://127.0.0.1:${server.lantern.grpcPort}`,
    dsn: server.dsn,
  };
  const t = createTestTracer('http-proto', { ...urls, serviceName: 'shop' });
  for (const tier of ['gold', 'free', 'gold']) {
    const span = t.tracer.startSpan('POST /checkout', {
      kind: SpanKind.SERVER,
      attributes: { 'http.route': '/checkout', 'customer.tier': tier },
    });
    span.recordException(new Error('card declined'));
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
    span.end();
  }
  await t.shutdown();
  expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);

  meter = createTestMeter('http-proto', { ...urls, serviceName: 'worker' });
  meter.meter.createObservableGauge('queue.depth').addCallback((r) => r.observe(159, { queue: 'emails' }));
  await meter.flush();
  // The queue stays backed up while the evaluator (5 s after each minute: FAST_ALERTING_ENV) looks at the last minute.
  keepSending = setInterval(() => void meter?.flush(), 5000);
  await vi.waitFor(
    async () => {
      const { metrics } = await fetch(`${server.lantern.baseUrl}/api/v1/metrics/1`, {
        headers: { cookie: server.cookie },
      }).then((r) => r.json() as Promise<{ metrics: { name: string }[] }>);
      expect(metrics.map((m) => m.name)).toContain('queue.depth');
    },
    { timeout: 20_000, interval: 200 },
  );

  const { channel } = await api('POST', '/notification-channels/webhook', {
    name: 'Ops hook',
    params: { url: 'http://127.0.0.1:9/hook', payload: '' },
  });
  const { monitor } = await api('POST', '/monitors/metric', {
    name: 'Queue backlog',
    channelIds: [channel.id],
    params: {
      metrics: [{ name: 'queue.depth', alias: 'depth' }],
      query: 'max($depth)',
      column: 'max($depth)',
      forDuration: 1,
      maxValue: 100,
    },
  });
  queueMonitorId = String(monitor.id);
  await api('POST', '/monitors/error', { name: 'Checkout errors', channelIds: [channel.id] });
}

afterAll(async () => {
  clearInterval(keepSending);
  await meter?.shutdown();
  rmSync(configDir, { recursive: true, force: true });
});

describe('alerting loose ends', () => {
  const session = useSignedInPage(server, 'alerting-loose-ends', setUp);
  let page: Page;
  beforeAll(() => {
    page = session.page();
  });

  it('suggests span attribute keys and their values for an error monitor matcher', async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-error`);
    const form = new MonitorFormPage(page, 'error').form;
    await form.getByTestId('monitor-name-input').fill('Gold customers');
    const attr = form.getByTestId('matcher-attr').first();
    await attr.click();
    const options = page.getByRole('listbox').getByRole('option');
    await options.filter({ hasText: 'customer.tier' }).waitFor();
    const keys = await options.allInnerTexts();
    expect(keys).toEqual(expect.arrayContaining(['service.name', 'http.route', 'customer.tier']));
    // The span's own columns are no attribute a matcher sees.
    expect(keys.filter((k) => k.startsWith('.'))).toEqual([]);
    await attr.fill('customer');
    await page.getByRole('option', { name: 'customer.tier' }).click();
    await expect(attr.inputValue()).resolves.toBe('customer.tier');

    await form.getByTestId('matcher-value').first().click();
    await options.filter({ hasText: 'gold' }).waitFor();
    await expect(options.allInnerTexts()).resolves.toEqual(['gold', 'free']);
    await screenshot(page, 'alerting-loose-ends-01-matcher-suggestions', { fullPage: false });
    await page.getByRole('option', { name: 'gold' }).click();
    await form.getByTestId('monitor-save').click();
    await page.waitForURL(/\/monitors$/);
    const { monitors } = await api<{ monitors: { name: string; params: { matchers?: unknown[] } }[] }>(
      'GET',
      '/monitors',
    );
    expect(monitors.find((m) => m.name === 'Gold customers')?.params.matchers).toEqual([
      { attr: 'customer.tier', op: '=', value: 'gold' },
    ]);
  });

  it('takes Enter in a matcher field as the value, not as saving, and refuses a half-typed matcher', async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-error`);
    const form = new MonitorFormPage(page, 'error').form;
    await form.getByTestId('monitor-name-input').fill('Typed with Enter');
    const attr = form.getByTestId('matcher-attr').first();
    await attr.click();
    await page.keyboard.type('customer.tier');
    // Before, Enter here submitted the form: the monitor was saved at once, its matcher (no value
    // yet) dropped, so it notified on every error.
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/alerting/1/monitors/new-error');
    await expect(attr.inputValue()).resolves.toBe('customer.tier');
    // Saved without a value: the row says so and nothing is saved.
    await form.getByTestId('monitor-save').click();
    await expect(form.getByText('Value is required').count()).resolves.toBe(1);
    await screenshot(page, 'alerting-loose-ends-01c-half-typed-matcher', { fullPage: false });
    const names = async () =>
      (await api<{ monitors: { name: string }[] }>('GET', '/monitors')).monitors.map((m) => m.name);
    expect(await names()).not.toContain('Typed with Enter');
    const value = form.getByTestId('matcher-value').first();
    await value.click();
    await page.keyboard.type('gold');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/alerting/1/monitors/new-error');
    await expect(form.getByText('Value is required').count()).resolves.toBe(0);
    await form.getByTestId('monitor-save').click();
    await page.waitForURL(/\/monitors$/);
    const { monitors } = await api<{ monitors: { name: string; params: { matchers?: unknown[] } }[] }>(
      'GET',
      '/monitors',
    );
    expect(monitors.find((m) => m.name === 'Typed with Enter')?.params.matchers).toEqual([
      { attr: 'customer.tier', op: '=', value: 'gold' },
    ]);
  });

  it('suggests the same keys and values for the error conditions of the e-mail settings', async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/email`);
    const attr = page.getByTestId('email-matcher-attr').first();
    await attr.click();
    const options = page.getByRole('listbox').getByRole('option');
    await options.filter({ hasText: 'customer.tier' }).waitFor();
    expect((await options.allInnerTexts()).filter((k) => k.startsWith('.'))).toEqual([]);
    await page.getByRole('option', { name: 'customer.tier' }).click();
    await page.getByTestId('email-matcher-value').first().click();
    await options.filter({ hasText: 'free' }).waitFor();
    await page.getByRole('option', { name: 'free' }).click();
    await expect(page.getByTestId('email-matcher-value').first().inputValue()).resolves.toBe('free');
    await screenshot(page, 'alerting-loose-ends-01b-email-conditions', { fullPage: false });
  });

  it("shows the error monitor's matchers and the e-mail settings' alike: one row, one order, the same words", async () => {
    session.explainFailures();
    // Per row: the parts left to right (by their test ids' last word), the fields' labels, the height.
    const lookOf = (row: Locator) =>
      row.evaluate((r) => ({
        order: Array.from(r.querySelectorAll('[data-testid]'))
          .map((e) => ({ id: e.getAttribute('data-testid')!, x: e.getBoundingClientRect().x }))
          .filter((e) => /-(attr|op|value|remove)$/.test(e.id))
          .sort((a, b) => a.x - b.x)
          .map((e) => e.id.replace(/^.*-/, '')),
        labels: Array.from(r.querySelectorAll('label')).map((l) => l.textContent?.trim()),
        height: Math.round(r.getBoundingClientRect().height),
      }));
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-error`);
    const form = new MonitorFormPage(page, 'error').form;
    const monitorRow = form.getByTestId('matcher-row').first();
    await monitorRow.waitFor();
    const monitor = await lookOf(monitorRow);
    const monitorAdd = await form
      .getByRole('button', { name: /matcher|condition/i })
      .last()
      .innerText();
    expect(monitor.order).toEqual(['attr', 'op', 'value', 'remove']);

    await page.goto(`${server.lantern.baseUrl}/alerting/1/email`);
    const emailRow = page.getByTestId('email-matcher').first();
    await emailRow.waitFor();
    await expect(lookOf(emailRow)).resolves.toEqual(monitor);
    await expect(page.getByTestId('email-matcher-add').innerText()).resolves.toBe(monitorAdd);
    // The e-mail settings match with = only: the operator shows, but cannot change.
    await expect(page.getByTestId('email-matcher-op').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'alerting-loose-ends-01d-email-matchers', { fullPage: false });
  });

  it('says nothing about metrics before one is picked, and reads or refuses a threshold typed as "20%" at its field', async () => {
    session.explainFailures();
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric`);
    const preview = page.getByTestId('monitor-preview');
    await preview.getByTestId('monitor-chart-empty').waitFor();
    await expect(preview.innerText()).resolves.toContain('Select a metric');
    expect(await preview.innerText()).not.toContain('There are no metrics');
    await screenshot(page, 'alerting-loose-ends-01g-metric-monitor-nothing-picked', { fullPage: false });

    const q = new URLSearchParams({ name: 'Queue share', metric: 'queue.depth', alias: 'depth', query: 'max($depth)' });
    await page.goto(`${server.lantern.baseUrl}/alerting/1/monitors/new-metric?${q}`);
    const form = new MonitorFormPage(page, 'metric').form;
    await form.getByTestId('monitor-chart').waitFor();
    const max = form.getByTestId('monitor-max');
    const helper = form.getByTestId('monitor-max-helper');
    // Without a percent unit "20%" means nothing: the field says so at once, before any Save.
    await max.fill('20%');
    await expect(helper.innerText()).resolves.toBe('A number without %, or pick the unit percents or utilization');
    await expect(max.getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'alerting-loose-ends-01e-percent-refused', { fullPage: false });
    // In a utilization (0..1) column it is 0.2, read back as 20%, and saved as such.
    await form.getByRole('combobox', { name: 'Unit' }).click();
    await page.getByRole('option', { name: 'utilization', exact: true }).click();
    await expect.poll(() => helper.innerText()).toBe('= 20%');
    await expect(max.getAttribute('aria-invalid')).resolves.toBe('false');
    await screenshot(page, 'alerting-loose-ends-01f-percent-read', { fullPage: false });
    await form.getByTestId('monitor-save').click();
    await page.waitForURL(/\/monitors$/);
    const { monitors } = await api<{ monitors: { id: number; name: string; params: { maxValue?: number } }[] }>(
      'GET',
      '/monitors',
    );
    const saved = monitors.find((m) => m.name === 'Queue share');
    expect(saved?.params.maxValue).toBe(0.2);
    await api('DELETE', `/monitors/${saved!.id}`);
  });

  it("shows each monitor's last activity as a relative time, the date in a tooltip", async () => {
    session.explainFailures();
    const list = new MonitorListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    const cell = list.row('Queue backlog').getByTestId('monitor-last-activity');
    await expect(cell.innerText()).resolves.toMatch(/^\d+ (second|minute)s? ago$/);
    await cell.hover();
    const tip = page.getByRole('tooltip');
    await expect(tip.innerText()).resolves.toMatch(/^[A-Z][a-z]{2} \d{1,2} \d{4} \d{2}:\d{2}$/);
    await screenshot(page, 'alerting-loose-ends-02-monitor-activity', { fullPage: false });
  });

  it('says a closed metric alert was closed and when, its trigger kept as history', async () => {
    session.explainFailures();
    const list = new AlertListPage(page);
    await list.goto(server.lantern.baseUrl, 1, `?q=${encodeURIComponent(`monitor:${queueMonitorId}`)}`);
    await list.reloadUntilRows(1, 200_000);
    const [name] = await list.names();
    expect(name).toContain('Queue backlog');
    await expect(list.row(name).getByTestId('alert-row-trigger').innerText()).resolves.toBe('159 more than 100');
    // Paused, so that the evaluator does not reopen the alert the user closes while it still fires.
    await api('PUT', `/monitors/${queueMonitorId}/paused`);

    const card = await list.open(name);
    await expect(card.fact('state').innerText()).resolves.toBe('State\nopen');
    await expect(card.fact('trigger').innerText()).resolves.toBe('Trigger\n159 more than 100');
    await card.closeButton.click();
    await card.reopenButton.waitFor();
    await expect.poll(() => card.fact('state').innerText()).toBe('State\nClosed by Admin');
    await expect(card.fact('time').innerText()).resolves.toMatch(/^Closed at\n[A-Z][a-z]{2} \d{1,2} \d{4} [\d:.]+$/);
    await expect(card.fact('trigger').innerText()).resolves.toBe('Fired when\n159 more than 100');
    await screenshot(page, 'alerting-loose-ends-03-closed-alert-card');
    await page.keyboard.press('Escape');
    await card.root.waitFor({ state: 'hidden' });

    await list.facetValue('alert.state', 'closed').click();
    const row = list.row(name);
    await row.waitFor();
    await expect(row.getByTestId('alert-row-closed').innerText()).resolves.toMatch(/^Closed \d+ seconds? ago$/);
    await expect(row.getByTestId('alert-row-trigger').innerText()).resolves.toBe('Fired when 159 more than 100');
    await screenshot(page, 'alerting-loose-ends-04-closed-alert-row', { fullPage: false });
  });

  it('at 800 px the alert list shows the alerts first: its filter boxes fold behind a Filters button', async () => {
    session.explainFailures();
    await page.setViewportSize({ width: 800, height: 900 });
    try {
      const list = new AlertListPage(page);
      const q = new URLSearchParams({ q: `monitor:${queueMonitorId}`, 'attrs.alert.state': 'closed' });
      await list.goto(server.lantern.baseUrl, 1, `?${q}`);
      await list.rows.first().waitFor();
      const facets = page.getByTestId('alert-facet');
      expect(await facets.count()).toBe(0);
      // The first alert is in the first screen, under the search box and the button.
      const first = (await list.rows.first().boundingBox())!;
      expect(first.y + first.height).toBeLessThan(600);
      await screenshot(page, 'alerting-loose-ends-04b-alert-list-800', { fullPage: false });
      const toggle = page.getByTestId('alert-filters-toggle');
      await expect(toggle.innerText()).resolves.toMatch(/^Filters \(1\)$/i);
      await toggle.click();
      await facets.first().waitFor();
      expect(await facets.count()).toBeGreaterThan(1);
      await screenshot(page, 'alerting-loose-ends-04c-alert-list-800-filters', { fullPage: false });
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it('names the monitors that notify through a channel before deleting it, and they keep running', async () => {
    session.explainFailures();
    await api('POST', '/notification-channels/webhook', {
      name: 'Spare hook',
      params: { url: 'http://127.0.0.1:9/spare', payload: '' },
    });
    const list = new ChannelListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    await list.askDelete('Ops hook');
    const named = list.confirmMessage.getByTestId('delete-channel-monitors').getByRole('listitem');
    await expect(named.allInnerTexts()).resolves.toEqual(['Checkout errors', 'Queue backlog']);
    await expect(list.confirmMessage.innerText()).resolves.toContain('These 2 monitors notify through it');
    await screenshot(page, 'alerting-loose-ends-05-delete-channel', { fullPage: false });
    await list.answerConfirm(true);
    await list.row('Ops hook').waitFor({ state: 'detached' });

    await list.askDelete('Spare hook');
    await expect(list.confirmMessage.getByTestId('delete-channel-no-monitors').innerText()).resolves.toBe(
      'No monitor notifies through it.',
    );
    await list.answerConfirm(false);

    // The monitor is still there, without the channel; its form saves as it is.
    const monitors = new MonitorListPage(page);
    await monitors.goto(server.lantern.baseUrl, 1);
    await monitors.clickRow('Checkout errors');
    const form = new MonitorFormPage(page, 'error').form;
    await form.getByTestId('monitor-name-input').waitFor();
    await expect(form.getByText(/Ops hook/).count()).resolves.toBe(0);
    await form.getByTestId('monitor-save').click();
    await page.waitForURL(/\/monitors$/);
    await expect(monitors.state('Checkout errors').innerText()).resolves.toBe('active');
  });

  it("says a metric monitor's alerts go with it before deleting it", async () => {
    session.explainFailures();
    const list = new MonitorListPage(page);
    await list.goto(server.lantern.baseUrl, 1);
    await list.row('Queue backlog').getByTestId('monitor-delete').click();
    const message = page.getByTestId('confirm-message');
    await expect(message.getByTestId('delete-monitor-alerts').innerText()).resolves.toBe(
      'Its 1 alert (0 open) will be deleted with it, history included.',
    );
    await screenshot(page, 'alerting-loose-ends-06-delete-monitor', { fullPage: false });
    await page.getByTestId('confirm-yes').click();
    await list.row('Queue backlog').waitFor({ state: 'detached' });
    const { count } = await api<{ count: number }>(
      'GET',
      `/alerts?q=${encodeURIComponent(`monitor:${queueMonitorId}`)}&attrs[alert.state]=closed&attrs[alert.state]=open`,
    );
    expect(count).toBe(0);

    // An error monitor's alerts are its span groups', not its own: nothing is said of them.
    await list.row('Checkout errors').getByTestId('monitor-delete').click();
    await expect(message.innerText()).resolves.toBe('Do you really want to delete "Checkout errors" monitor?');
    await page.getByTestId('confirm-no').click();
  });
});
