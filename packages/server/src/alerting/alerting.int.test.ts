import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { ExportResultCode } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlertListResponse,
  ChannelResponse,
  MAX_MONITORS,
  MonitorListResponse,
  MonitorResponse,
  WebhookMessage,
  type Alert,
} from '@lantern/shared';
import { PROJECT1_TOKEN, PROJECT2_TOKEN, removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { createTestLogger, createTestTracer } from '@lantern/testkit/otlpClients';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '@lantern/testkit/receivers';
import { startAlertingServer, TEST_SITE as SITE, type AlertingTestServer } from './alertingTestServer';

/**
 * Alerting end to end in one process: the real server (HTTP API, OTLP ingest, chDB, SQLite), real
 * OpenTelemetry exporters sending failed spans, and real local receivers for webhook, Slack,
 * Alertmanager (HTTP) and e-mail (SMTP). The alerting clock is injected so minutes pass at once.
 */
let dataDir: string;
let receiver: HttpReceiver;
let smtp: SmtpReceiver;
let server: AlertingTestServer;
const clock = { now: new Date() };

async function start(): Promise<void> {
  server = await startAlertingServer({ dataDir, smtpPort: smtp.port, clock });
}

beforeAll(async () => {
  dataDir = tempDataDir();
  receiver = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  await start();
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  await smtp?.close();
  if (dataDir) removeDataDir(dataDir);
});

const call = <T = unknown>(method: string, path: string, body?: unknown) => server.call<T>(method, path, body);

/** Sends one failed span per service through the OTLP/HTTP protobuf exporter, at `time`. */
async function sendErrors(
  services: string[],
  time: Date,
  name = 'POST /checkout',
  durationMs = 5,
  dsn = `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
): Promise<void> {
  for (const service of services) {
    const t = createTestTracer('http-proto', {
      httpUrl: server.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.grpcPort}`,
      dsn,
      serviceName: service,
    });
    const span = t.tracer.startSpan(name, {
      kind: SpanKind.SERVER,
      startTime: time,
      attributes: { 'http.request.method': 'POST', 'http.route': '/checkout' },
    });
    span.recordException(new Error('card declined'));
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
    span.end(new Date(time.getTime() + durationMs));
    await t.shutdown();
    expect(t.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
  }
}

/** The text of a quoted-printable e-mail (soft line breaks joined, `=XX` decoded). */
const quotedPrintable = (raw: string): string =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const minutes = (n: number) => new Date(clock.now.getTime() + n * 60_000);
/** What JSON.parse says about a text that does not parse. */
const jsonParseError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} parses`);
};
const listAlerts = async (query = '') => AlertListResponse.parse((await call('GET', `/alerts${query}`)).body);

let webhookId = 0;
let slackId = 0;
let amId = 0;
let errorMonitorId = '';
let checkoutAlert: Alert;

describe('validation', () => {
  const metric = (over: Record<string, unknown> = {}, params: Record<string, unknown> = {}) => ({
    name: 'CPU',
    params: {
      metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
      query: 'avg($cpu)',
      column: 'avg($cpu)',
      forDuration: 5,
      forDurationUnit: 'minutes',
      maxValue: 0.9,
      ...params,
    },
    ...over,
  });
  it.each([
    ['an empty name', metric({ name: ' ' }), "name can't be empty"],
    ['no bounds', metric({}, { maxValue: null }), 'At least min value is required'],
    ['max not above min', metric({}, { minValue: 5, maxValue: '5' }), 'Max value should be greater than min'],
    ['an unknown duration unit', metric({}, { forDurationUnit: 'days' }), 'unsupported duration unit: "days"'],
    ['a duration outside the choices', metric({}, { forDuration: 7 }), 'forDuration must be one of 1, 3, 5, 10, 15'],
    ['no metric', metric({}, { metrics: [] }), 'at least one metric is required'],
    [
      'seven metrics',
      metric({}, { metrics: Array.from({ length: 7 }, (_, i) => ({ name: 'm', alias: `a${i}` })) }),
      'at most 6 metrics are allowed',
    ],
    ['a bad alias', metric({}, { metrics: [{ name: 'm', alias: 'a-b' }] }), 'Only letters and numbers are allowed'],
    [
      'a duplicated alias',
      metric(
        {},
        {
          metrics: [
            { name: 'm', alias: 'a' },
            { name: 'n', alias: 'A' },
          ],
        },
      ),
      'Alias is duplicated',
    ],
    ['an empty query', metric({}, { query: '' }), "query can't be empty"],
    ['an unknown channel', metric({ channelIds: [999] }), 'notification channel 999 does not exist'],
  ])('refuses a metric monitor with %s', async (_name, body, message) => {
    const r = await call<{ code: string; message: string }>('POST', '/monitors/metric', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
  });

  it('refuses channels with bad URLs, bad payloads and addresses outside the allowed networks', async () => {
    const bad = [
      [{ name: 'x', params: { url: 'ftp://example.com' } }, 'unsupported URL protocol scheme: "ftp"'],
      [{ name: 'x', params: { url: '' } }, "url can't be empty"],
      [{ name: '', params: { url: receiver.url } }, "channel name can't be empty"],
      // The parse error text is the message, at its field.
      [{ name: 'x', params: { url: receiver.url, payload: '{oops' } }, `params.payload: ${jsonParseError('{oops')}`],
      [{ name: 'x', params: { url: 'http://10.1.2.3/hook' } }, 'a private address'],
      [{ name: 'x', params: { url: 'http://169.254.169.254/latest' } }, 'a link-local address'],
    ] as const;
    for (const [body, message] of bad) {
      const r = await call<{ message: string }>('POST', '/notification-channels/webhook', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(message);
    }
  });
});

describe('error monitors', () => {
  it('creates channels and an error monitor', async () => {
    const webhook = await call('POST', '/notification-channels/webhook', {
      name: 'hook',
      params: {
        url: `${receiver.url}/webhook`,
        payload: JSON.stringify({ text: '{{alert.name}} is {{alert.state}}', env: 'test' }),
      },
    });
    expect(webhook.status).toBe(200);
    webhookId = ChannelResponse.parse(webhook.body).channel.id;
    slackId = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/slack', {
          name: 'slack',
          params: { webhookUrl: `${receiver.url}/slack` },
        })
      ).body,
    ).channel.id;
    amId = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/webhook', {
          type: 'alertmanager',
          name: 'am',
          params: { url: `${receiver.url}/api/v2/alerts` },
        })
      ).body,
    ).channel.id;

    // The project's default monitor ("Notify on all errors") gives way to the team's own.
    const defaults = MonitorListResponse.parse((await call('GET', '/monitors')).body).monitors;
    expect(defaults.map((m) => m.name)).toEqual(['Notify on all errors']);
    expect((await call('DELETE', `/monitors/${defaults[0].id}`)).status).toBe(200);

    const r = await call('POST', '/monitors/error', {
      name: 'Checkout errors',
      notifyEveryoneByEmail: true,
      channelIds: [webhookId, slackId, amId],
      params: {
        notifyOnNewErrors: true,
        notifyOnRecurringErrors: true,
        matchers: [
          { attr: 'service.name', op: '=', value: 'checkout' },
          { attr: '', op: '=', value: '' },
        ],
      },
    });
    expect(r.status).toBe(200);
    const monitor = MonitorResponse.parse(r.body).monitor;
    errorMonitorId = monitor.id;
    expect(monitor).toMatchObject({
      type: 'error',
      state: 'active',
      channelIds: [webhookId, slackId, amId],
      params: { matchers: [{ attr: 'service.name', op: '=', value: 'checkout' }] },
    });
  });

  it('turns failed spans sent over OTLP into alerts and notifies every channel and e-mail once', async () => {
    const spanTime = new Date();
    await sendErrors(['checkout', 'inventory'], spanTime);
    clock.now = new Date(spanTime.getTime() + 2 * 60_000);
    // Evaluate, then restart before delivering: the decided notifications survive the restart.
    expect(await server.lantern.alerting.scheduler.evaluate()).toEqual({ leader: true });
    expect(receiver.requests).toHaveLength(0);
    await server.lantern.close();
    await start();

    await server.lantern.alerting.scheduler.tick();
    const { alerts } = await listAlerts();
    expect(alerts.map((a) => a.attrs['service.name']).sort()).toEqual(['checkout', 'inventory']);
    checkoutAlert = alerts.find((a) => a.attrs['service.name'] === 'checkout')!;
    expect(checkoutAlert).toMatchObject({
      type: 'error',
      state: 'open',
      name: 'POST /checkout',
      trackableModel: 'SpanGroup',
      params: { spanCount: 1 },
    });
    expect(checkoutAlert.params).toMatchObject({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      spanId: expect.stringMatching(/^\d+$/),
    });

    // Only the checkout error matches the monitor: one message per channel.
    const [hook] = receiver.on('/webhook');
    expect(receiver.on('/webhook')).toHaveLength(1);
    const msg = WebhookMessage.parse(hook.body);
    expect(hook.body).toEqual({
      id: msg.id,
      eventName: 'created',
      payload: { text: 'POST /checkout is open', env: 'test' },
      createdAt: msg.createdAt,
      alert: {
        id: String(checkoutAlert.id),
        url: `${SITE}/alerting/1/alerts/${checkoutAlert.id}`,
        name: 'POST /checkout',
        type: 'error',
        state: 'open',
        createdAt: msg.alert.createdAt,
      },
    });
    expect(msg.id).toMatch(/^\d+$/);
    expect(msg.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(hook.headers['content-type']).toBe('application/json');

    expect(receiver.on('/slack')).toHaveLength(1);
    expect(receiver.on('/slack')[0].body).toEqual({
      text: '[Lantern] POST /checkout',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':beetle: *[Lantern] A new error has just occurred*\nPOST /checkout' },
          accessory: {
            type: 'button',
            text: { type: 'plain_text', text: 'View' },
            action_id: 'button-action',
            value: `view_${checkoutAlert.id}`,
            url: `${SITE}/alerting/1/alerts/${checkoutAlert.id}`,
          },
        },
      ],
    });

    const [am] = receiver.on('/api/v2/alerts');
    expect(receiver.on('/api/v2/alerts')).toHaveLength(1);
    expect(am.body).toEqual([
      {
        labels: expect.objectContaining({
          service_name: 'checkout',
          alertname: 'POST /checkout',
          alerturl: `${SITE}/alerting/1/alerts/${checkoutAlert.id}`,
        }),
        annotations: { summary: 'A new error has just occurred' },
        startsAt: checkoutAlert.createdAt,
        generatorURL: `${SITE}/alerting/1/alerts/${checkoutAlert.id}`,
      },
    ]);

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['admin@lantern.local']);
    expect(smtp.mails[0].raw).toContain('Subject: [Lantern] POST /checkout');
    expect(smtp.mails[0].raw).toContain('A new error has just occurred');
    // The e-mail lists the span's attributes, not only the few the alert keeps for its facets.
    const html = quotedPrintable(smtp.mails[0].raw);
    expect(checkoutAlert.attrs['http.route']).toBeUndefined();
    expect(html).toContain('<tr><td>http.route</td><td>/checkout</td></tr>');
    expect(html).toContain('<tr><td>service.name</td><td>checkout</td></tr>');

    // Another tick at the same time, and a later one: nothing is sent twice.
    await server.lantern.alerting.scheduler.tick();
    clock.now = minutes(3);
    await server.lantern.alerting.scheduler.tick();
    expect(receiver.requests).toHaveLength(3);
    expect(smtp.mails).toHaveLength(1);
  });

  it('closes and reopens alerts through the API, telling the channels who did it', async () => {
    expect((await call('PUT', '/alerts/closed', { alertIds: [] })).body).toMatchObject({
      message: 'alertIds: at least one alert is required',
    });
    expect((await call('PUT', '/alerts/closed', { alertIds: [999999] })).status).toBe(403);

    const closed = await call('PUT', '/alerts/closed', { alertIds: [checkoutAlert.id] });
    expect(closed).toEqual({ status: 200, body: { count: 1 } });
    expect((await call<{ alert: Alert }>('GET', `/alerts/${checkoutAlert.id}`)).body.alert.state).toBe('closed');
    await server.lantern.alerting.scheduler.deliver();
    const slack = receiver.on('/slack');
    expect((slack.at(-1)!.body as { blocks: { text: { text: string } }[] }).blocks[0].text.text).toBe(
      ':white_check_mark: *[Lantern] The error is closed by Admin*\nPOST /checkout',
    );
    const hook = WebhookMessage.parse(receiver.on('/webhook').at(-1)!.body);
    expect(hook).toMatchObject({
      eventName: 'state-changed',
      alert: { state: 'closed' },
      payload: { text: 'POST /checkout is closed' },
    });
    expect(receiver.on('/api/v2/alerts').at(-1)!.body).toEqual([
      expect.objectContaining({ endsAt: expect.any(String) }),
    ]);

    // Closed alerts leave the default (open) list and show in the state facet.
    const list = await listAlerts();
    expect(list.alerts.map((a) => a.id)).not.toContain(checkoutAlert.id);
    expect(list.facets[0].items).toEqual(expect.arrayContaining([{ key: 'alert.state', value: 'closed', count: 1 }]));
    expect((await listAlerts('?attrs[alert.state]=closed')).alerts.map((a) => a.id)).toEqual([checkoutAlert.id]);

    expect(await call('PUT', '/alerts/open', { alertIds: [checkoutAlert.id] })).toEqual({
      status: 200,
      body: { count: 1 },
    });
    await server.lantern.alerting.scheduler.deliver();
    expect((receiver.on('/slack').at(-1)!.body as { blocks: { text: { text: string } }[] }).blocks[0].text.text).toBe(
      ':red_circle: *[Lantern] The error is reopened by Admin*\nPOST /checkout',
    );
  });

  it('reopens a closed error alert when the error recurs, with a recurring event', async () => {
    await call('PUT', '/alerts/closed', { alertIds: [checkoutAlert.id] });
    await server.lantern.alerting.scheduler.deliver();
    const before = receiver.on('/webhook').length;
    await sendErrors(['checkout'], minutes(0));
    clock.now = minutes(2);
    await server.lantern.alerting.scheduler.tick();
    const alert = (await call<{ alert: Alert }>('GET', `/alerts/${checkoutAlert.id}`)).body.alert;
    expect(alert).toMatchObject({ state: 'open', params: { spanCount: 2 } });
    const hooks = receiver.on('/webhook');
    expect(hooks).toHaveLength(before + 1);
    expect(hooks.at(-1)!.body).toMatchObject({ eventName: 'recurring', alert: { state: 'open' } });
    expect((receiver.on('/slack').at(-1)!.body as { blocks: { text: { text: string } }[] }).blocks[0].text.text).toBe(
      ':beetle: *[Lantern] The error has 2 occurrences*\nPOST /checkout',
    );
  });

  it('alerts on failed spans that started before the last scan: long requests and late exporters', async () => {
    await server.lantern.alerting.scheduler.tick();
    const before = (await listAlerts()).alerts.length;
    // Both are stored after the scan above, though both started long before it.
    const start = Date.now();
    await sendErrors(['export'], new Date(start - 20 * 60_000), 'POST /export', 20 * 60_000 - 1000);
    await sendErrors(['batch'], new Date(start - 3 * 3_600_000), 'POST /late');
    clock.now = minutes(1);
    await server.lantern.alerting.scheduler.tick();
    const late = async () =>
      (await listAlerts()).alerts
        .filter((a) => a.name === 'POST /export' || a.name === 'POST /late')
        .map((a) => ({
          name: a.name,
          type: a.type,
          state: a.state,
          spanCount: 'spanCount' in a.params ? a.params.spanCount : null,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    const both = [
      { name: 'POST /export', type: 'error', state: 'open', spanCount: 1 },
      { name: 'POST /late', type: 'error', state: 'open', spanCount: 1 },
    ];
    expect(await late()).toEqual(both);
    expect((await listAlerts()).alerts).toHaveLength(before + 2);
    // Each is counted once: the next scan does not read them again.
    clock.now = minutes(1);
    await server.lantern.alerting.scheduler.tick();
    expect(await late()).toEqual(both);
  });

  it('alerts on standalone error logs, once per log group, and not on lower severities', async () => {
    await server.lantern.alerting.scheduler.tick();
    const before = (await listAlerts()).alerts.map((a) => a.id);
    const l = createTestLogger('http-proto', {
      httpUrl: server.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'worker',
    });
    const error = { severityNumber: SeverityNumber.ERROR, severityText: 'ERROR' };
    l.logger.emit({ ...error, body: 'payment gateway timed out after 3000 ms' });
    l.logger.emit({ ...error, body: 'payment gateway timed out after 5000 ms' });
    l.logger.emit({ severityNumber: SeverityNumber.WARN, severityText: 'WARN', body: 'retrying payment 7' });
    // A log that carries an exception raises it by the exception's group, not by its log line too.
    l.logger.emit({
      ...error,
      body: 'charge failed',
      attributes: { 'exception.type': 'CardError', 'exception.message': 'card declined' },
    });
    await l.shutdown();
    expect(l.results.every((r) => r.code === ExportResultCode.SUCCESS)).toBe(true);
    clock.now = minutes(1);
    await server.lantern.alerting.scheduler.tick();
    const alerts = (await listAlerts()).alerts.filter((a) => !before.includes(a.id));
    // The alert card shows the log record as its span.
    for (const a of alerts) {
      const p = a.params as { traceId: string; spanId: string };
      const span = await fetch(`${server.baseUrl}/api/v1/tracing/1/traces/${p.traceId}/${p.spanId}`, {
        headers: { cookie: server.cookie },
      });
      expect(span.status).toBe(200);
      expect(((await span.json()) as { span: { system: string } }).span.system).toBe('log:error');
    }
    const added = alerts
      .map((a) => ({
        name: a.name,
        type: a.type,
        service: a.attrs['service.name'],
        severity: a.attrs['log.severity'],
        spanCount: 'spanCount' in a.params ? a.params.spanCount : null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(added).toEqual([
      { name: 'CardError: card declined', type: 'error', service: 'worker', severity: 'ERROR', spanCount: 1 },
      {
        name: expect.stringContaining('payment gateway timed out'),
        type: 'error',
        service: 'worker',
        severity: 'ERROR',
        spanCount: 2,
      },
    ]);
  });

  it('sends nothing to a paused channel, and delivers again once unpaused', async () => {
    const paused = await call('PUT', `/notification-channels/${webhookId}/paused`);
    expect(ChannelResponse.parse(paused.body).channel.state).toBe('paused');
    const hooks = receiver.on('/webhook').length;
    const slack = receiver.on('/slack').length;
    await call('PUT', '/alerts/closed', { alertIds: [checkoutAlert.id] });
    await server.lantern.alerting.scheduler.deliver();
    expect(receiver.on('/webhook')).toHaveLength(hooks);
    expect(receiver.on('/slack')).toHaveLength(slack + 1);

    await call('PUT', `/notification-channels/${webhookId}/unpaused`);
    await call('PUT', '/alerts/open', { alertIds: [checkoutAlert.id] });
    await server.lantern.alerting.scheduler.deliver();
    expect(receiver.on('/webhook')).toHaveLength(hooks + 1);
  });

  it('retries a failing webhook with backoff and records the delivery state', async () => {
    receiver.answer('/flaky', 503, 200);
    const flaky = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/webhook', {
          name: 'flaky',
          params: { url: `${receiver.url}/flaky` },
        })
      ).body,
    ).channel;
    const monitor = MonitorResponse.parse((await call('GET', `/monitors/${errorMonitorId}`)).body).monitor;
    await call('PUT', `/monitors/${errorMonitorId}/error`, {
      name: monitor.name,
      notifyEveryoneByEmail: false,
      channelIds: [flaky.id],
      params: monitor.params,
    });

    await call('PUT', '/alerts/closed', { alertIds: [checkoutAlert.id] });
    await server.lantern.alerting.scheduler.deliver();
    expect(receiver.on('/flaky')).toHaveLength(0);
    let ch = ChannelResponse.parse((await call('GET', `/notification-channels/webhook/${flaky.id}`)).body).channel;
    expect(ch.delivery).toMatchObject({
      consecutiveFailures: 1,
      pending: 1,
      lastError: 'unexpected response: 503 (answered 503)',
    });

    // Not due yet: the first retry waits 30 s.
    await server.lantern.alerting.scheduler.deliver(new Date(clock.now.getTime() + 10_000));
    expect(receiver.on('/flaky')).toHaveLength(0);
    await server.lantern.alerting.scheduler.deliver(new Date(clock.now.getTime() + 31_000));
    expect(receiver.on('/flaky')).toHaveLength(1);
    ch = ChannelResponse.parse((await call('GET', `/notification-channels/webhook/${flaky.id}`)).body).channel;
    expect(ch.delivery).toMatchObject({ consecutiveFailures: 0, pending: 0 });
    expect(ch.delivery.lastDeliveredAt).not.toBeNull();
  });

  it('disables a Slack channel whose webhook is gone (404)', async () => {
    receiver.answer('/slack-gone', 404);
    const gone = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/slack', {
          name: 'gone',
          params: { webhookUrl: `${receiver.url}/slack-gone` },
        })
      ).body,
    ).channel;
    const monitor = MonitorResponse.parse((await call('GET', `/monitors/${errorMonitorId}`)).body).monitor;
    await call('PUT', `/monitors/${errorMonitorId}/error`, {
      name: monitor.name,
      channelIds: [gone.id],
      params: monitor.params,
    });
    await call('PUT', '/alerts/open', { alertIds: [checkoutAlert.id] });
    await server.lantern.alerting.scheduler.deliver();
    const ch = ChannelResponse.parse((await call('GET', `/notification-channels/slack/${gone.id}`)).body).channel;
    expect(ch.state).toBe('disabled');
    expect(ch.delivery.lastError).toContain('404');
  });

  it('disables a webhook channel after 5 permanent failures in a row, and unpausing re-enables it', async () => {
    receiver.answer('/bad', 400);
    const bad = ChannelResponse.parse(
      (await call('POST', '/notification-channels/webhook', { name: 'bad', params: { url: `${receiver.url}/bad` } }))
        .body,
    ).channel;
    const monitor = MonitorResponse.parse((await call('GET', `/monitors/${errorMonitorId}`)).body).monitor;
    await call('PUT', `/monitors/${errorMonitorId}/error`, {
      name: monitor.name,
      channelIds: [bad.id],
      params: monitor.params,
    });
    const states: string[] = [];
    for (let i = 0; i < 5; i++) {
      await call('PUT', i % 2 ? '/alerts/open' : '/alerts/closed', { alertIds: [checkoutAlert.id] });
      await server.lantern.alerting.scheduler.deliver();
      states.push(
        ChannelResponse.parse((await call('GET', `/notification-channels/webhook/${bad.id}`)).body).channel.state,
      );
    }
    expect(states).toEqual(['delivering', 'delivering', 'delivering', 'delivering', 'disabled']);
    // Permanent failures are not retried: nothing is left pending.
    const ch = ChannelResponse.parse((await call('GET', `/notification-channels/webhook/${bad.id}`)).body).channel;
    expect(ch.delivery).toMatchObject({
      consecutiveFailures: 5,
      pending: 0,
      lastError: 'unexpected response: 400 (answered 400)',
    });
    const unpaused = ChannelResponse.parse(
      (await call('PUT', `/notification-channels/${bad.id}/unpaused`)).body,
    ).channel;
    expect(unpaused).toMatchObject({ state: 'delivering', delivery: { consecutiveFailures: 0 } });
  });

  it('closes all matching alerts, deletes alerts, and lists monitors with counts', async () => {
    const all = await call<{ count: number }>('PUT', '/alerts/close-all');
    expect(all.status).toBe(200);
    expect(all.body.count).toBeGreaterThanOrEqual(1);
    expect((await listAlerts()).alerts).toHaveLength(0);

    const list = (
      await call<{ monitors: { id: string; alertOpenCount: number }[]; states: { state: string; count: number }[] }>(
        'GET',
        '/monitors',
      )
    ).body;
    expect(list.monitors.map((m) => m.id)).toContain(errorMonitorId);
    expect(list.states).toEqual(expect.arrayContaining([{ state: 'active', count: 1 }]));

    // An error monitor's alerts are the error alerts it matched (service.name = checkout): counted
    // on its row and listed by `monitor:<id>`; error alerts of other services are not among them.
    const checkoutMonitor = MonitorListResponse.parse((await call('GET', '/monitors')).body).monitors.find(
      (m) => m.id === errorMonitorId,
    );
    const closedOfMonitor = (
      await listAlerts(`?q=${encodeURIComponent(`monitor:${errorMonitorId}`)}&attrs[alert.state]=closed`)
    ).alerts;
    expect(closedOfMonitor.map((a) => a.id)).toContain(checkoutAlert.id);
    expect(new Set(closedOfMonitor.map((a) => a.attrs['service.name']))).toEqual(new Set(['checkout']));
    const allClosed = (await listAlerts('?attrs[alert.state]=closed&limit=100')).alerts;
    expect(allClosed.some((a) => a.attrs['service.name'] !== 'checkout')).toBe(true);
    expect(checkoutMonitor).toMatchObject({ alertOpenCount: 0, alertClosedCount: closedOfMonitor.length });

    expect(await call('DELETE', '/alerts', { alertIds: [checkoutAlert.id] })).toEqual({
      status: 200,
      body: { count: 1 },
    });
    expect((await call('GET', `/alerts/${checkoutAlert.id}`)).status).toBe(404);
  });
});

describe('an error monitor created while its errors are open under another monitor', () => {
  const hook = async (name: string) =>
    ChannelResponse.parse(
      (await call('POST', '/notification-channels/webhook', { name, params: { url: `${receiver.url}/${name}` } })).body,
    ).channel.id;
  const monitorRow = async (id: string) =>
    MonitorListResponse.parse((await call('GET', '/monitors')).body).monitors.find((m) => m.id === id)!;
  const createdHooks = (path: string) =>
    receiver.on(path).filter((r) => WebhookMessage.parse(r.body).eventName === 'created');

  it('shows the open alert it matches and notifies its channels of it once', async () => {
    const all = MonitorResponse.parse(
      (
        await call('POST', '/monitors/error', {
          name: 'All errors',
          channelIds: [await hook('adopt-all')],
          params: { notifyOnNewErrors: true, notifyOnRecurringErrors: true, matchers: [] },
        })
      ).body,
    ).monitor;
    // The service fails: its alert opens under "All errors".
    await sendErrors(['payments'], new Date(), 'POST /pay');
    clock.now = minutes(2);
    await server.lantern.alerting.scheduler.tick();
    const alert = (await listAlerts()).alerts.find((a) => a.attrs['service.name'] === 'payments')!;
    expect(alert).toMatchObject({ name: 'POST /pay', state: 'open' });
    expect(createdHooks('/adopt-all')).toHaveLength(1);
    const mails = smtp.mails.length;

    // The team's own monitor for the service comes later; before the service fails again it has nothing.
    const team = MonitorResponse.parse(
      (
        await call('POST', '/monitors/error', {
          name: 'Payments errors',
          notifyEveryoneByEmail: true,
          channelIds: [await hook('adopt-team')],
          params: {
            notifyOnNewErrors: true,
            notifyOnRecurringErrors: false,
            matchers: [{ attr: 'service.name', op: '=', value: 'payments' }],
          },
        })
      ).body,
    ).monitor;
    expect(await monitorRow(team.id)).toMatchObject({ alertOpenCount: 0 });

    // It keeps failing (no recount threshold: "All errors" is not told again): the alert is the team's too.
    for (let i = 0; i < 2; i++) {
      await sendErrors(['payments'], new Date(), 'POST /pay');
      clock.now = minutes(2);
      await server.lantern.alerting.scheduler.tick();
    }
    expect(await monitorRow(team.id)).toMatchObject({ alertOpenCount: 1 });
    expect((await listAlerts(`?q=${encodeURIComponent(`monitor:${team.id}`)}`)).alerts.map((a) => a.id)).toEqual([
      alert.id,
    ]);
    // Its channel and the e-mail got the alert's opening message, once; "All errors" nothing new.
    expect(createdHooks('/adopt-team').map((r) => WebhookMessage.parse(r.body).alert.id)).toEqual([String(alert.id)]);
    expect(receiver.on('/adopt-team')).toHaveLength(1);
    expect(receiver.on('/adopt-all')).toHaveLength(1);
    expect(smtp.mails.slice(mails).map((m) => m.raw.includes('Subject: [Lantern] POST /pay'))).toEqual([true]);
    expect((await call<{ alert: Alert }>('GET', `/alerts/${alert.id}`)).body.alert.params).toMatchObject({
      spanCount: 3,
    });

    for (const m of [all, team]) expect((await call('DELETE', `/monitors/${m.id}`)).status).toBe(200);
  });
});

describe('metric monitors without a metrics engine', () => {
  it('are evaluated as no data, and say why', async () => {
    const r = await call('POST', '/monitors/metric', {
      name: 'CPU',
      params: {
        metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
        query: 'avg($cpu)',
        column: 'avg($cpu)',
        forDuration: 1,
        forDurationUnit: 'hours',
        maxValue: 0.9,
      },
    });
    expect(r.status).toBe(200);
    const id = MonitorResponse.parse(r.body).monitor.id;
    clock.now = minutes(1);
    await server.lantern.alerting.scheduler.tick();
    const m = MonitorResponse.parse((await call('GET', `/monitors/${id}`)).body).monitor;
    expect(m).toMatchObject({
      state: 'no-data',
      stateReason: expect.stringContaining('no metrics query engine'),
      params: { forDurationUnit: 'hours' },
    });
    expect(m.lastCheckAt).not.toBeNull();

    expect((await call('PUT', `/monitors/${id}/paused`)).status).toBe(200);
    expect((await call('PUT', `/monitors/${id}/error`, { name: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/monitors/${id}`)).status).toBe(200);
    expect((await call('GET', `/monitors/${id}`)).status).toBe(404);
  });
});

describe('e-mail settings', () => {
  it('are all on by default and saved per user and project', async () => {
    expect((await call('GET', '/notification-channels/email')).body).toEqual({
      channel: {
        notifyOnMetrics: true,
        notifyOnNewErrors: true,
        notifyOnRecurringErrors: true,
        errorMatchers: [],
        email: 'admin@lantern.local',
      },
      smtpEnabled: true,
    });
    const saved = await call('PUT', '/notification-channels/email', {
      notifyOnMetrics: false,
      notifyOnNewErrors: true,
      notifyOnRecurringErrors: false,
      errorMatchers: [
        { attr: 'service.name', value: 'api' },
        { attr: '', value: '' },
      ],
    });
    expect(saved.body).toEqual({
      channel: {
        notifyOnMetrics: false,
        notifyOnNewErrors: true,
        notifyOnRecurringErrors: false,
        errorMatchers: [{ attr: 'service.name', value: 'api' }],
        email: 'admin@lantern.local',
      },
      smtpEnabled: true,
    });
    expect((await call('GET', '/notification-channels/email')).body).toEqual(saved.body);
  });
});

describe('monitors per project', () => {
  /** The monitor API of project 2 (project 1's monitors belong to the tests above). */
  const call2 = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}/api/v1/projects/2/monitors${path}`, {
      method,
      headers: { cookie: server.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const errorMonitor = (name: string) => ({
    name,
    params: { notifyOnNewErrors: true, notifyOnRecurringErrors: false, matchers: [] },
  });
  const metricMonitor = (name: string) => ({
    name,
    params: {
      metrics: [{ name: 'system.cpu.utilization', alias: 'cpu' }],
      query: 'avg($cpu)',
      column: 'avg($cpu)',
      forDuration: 5,
      forDurationUnit: 'minutes',
      maxValue: 0.9,
    },
  });

  it(`holds the cap of ${MAX_MONITORS} (as many as the list shows) under concurrent creates (PostgreSQL too)`, async () => {
    // The project's default monitor counts too.
    const start = MonitorListResponse.parse((await call2('GET', '')).body).count;
    const made: string[] = [];
    for (let left = MAX_MONITORS - 10 - start; left > 0; left -= 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, left) }, (_, i) =>
          call2('POST', '/error', errorMonitor(`filler ${left}-${i}`)),
        ),
      );
      for (const a of batch) made.push(MonitorResponse.parse(a.body).monitor.id);
    }
    // Before, nothing counted: all 30 were created, and the list (at most MAX_MONITORS a page) hid some.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? call2('POST', '/error', errorMonitor(`burst ${i}`))
          : call2('POST', '/metric', metricMonitor(`burst ${i}`)),
      ),
    );
    expect(burst.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = burst.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(20);
    for (const a of refused)
      expect([a.status, a.body]).toEqual([
        400,
        { code: 'too_many_monitors', message: `a project can't have more than ${MAX_MONITORS} monitors` },
      ]);
    const list = MonitorListResponse.parse((await call2('GET', `?limit=${MAX_MONITORS}`)).body);
    expect([list.count, list.monitors.length]).toEqual([MAX_MONITORS, MAX_MONITORS]);

    // Deleting one makes room for one; project 1 is not counted against project 2's monitors.
    expect((await call2('DELETE', `/${made[0]}`)).status).toBe(200);
    expect((await call2('POST', '/error', errorMonitor('room'))).status).toBe(200);
    expect((await call2('POST', '/error', errorMonitor('no room'))).status).toBe(400);
    expect((await call('POST', '/monitors/error', errorMonitor('project 1'))).status).toBe(200);

    // Every one of them is evaluated: the newest takes project 2's first error (before, only the first 100 did).
    await sendErrors(['cap'], new Date(), 'GET /cap', 5, `http://${PROJECT2_TOKEN}@127.0.0.1/2`);
    clock.now = minutes(2);
    await server.lantern.alerting.scheduler.tick();
    const newest = MonitorListResponse.parse((await call2('GET', '?limit=1')).body).monitors[0];
    expect(newest).toMatchObject({ name: 'room', alertOpenCount: 1 });
  });
});
