import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChannelListResponse,
  ChannelResponse,
  ChannelTestResponse,
  EmailTestResponse,
  MAX_CHANNELS,
  MonitorListResponse,
  MonitorResponse,
  WebhookMessage,
} from '@lantern/shared';
import { PROJECT1_TOKEN, removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { createTestTracer } from '@lantern/testkit/otlpClients';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from '@lantern/testkit/receivers';
import { startAlertingServer, TEST_SITE, type AlertingTestServer } from './alertingTestServer';
import { createChannelsService } from './channels.service';
import { createAddressGuard } from './delivery/ssrf';
import { TEST_ALERT_NAME } from './delivery/testNotification';

/** The channel test button's endpoint against the real server and a real local receiver. */
let dataDir: string;
let receiver: HttpReceiver;
let smtp: SmtpReceiver;
let server: AlertingTestServer;
const clock = { now: new Date() };

beforeAll(async () => {
  dataDir = tempDataDir();
  receiver = await startHttpReceiver();
  smtp = await startSmtpReceiver();
  server = await startAlertingServer({ dataDir, smtpPort: smtp.port, clock });
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  await smtp?.close();
  if (dataDir) removeDataDir(dataDir);
});

const call = <T = unknown>(method: string, path: string, body?: unknown) => server.call<T>(method, path, body);

async function createWebhook(path: string, payload = ''): Promise<number> {
  const res = await call('POST', '/notification-channels/webhook', {
    name: `hook ${path}`,
    params: { url: `${receiver.url}${path}`, payload },
  });
  expect(res.status).toBe(200);
  return ChannelResponse.parse(res.body).channel.id;
}

describe('POST /notification-channels/:id/test', () => {
  it('delivers the sample message now and reports the 2xx answer', async () => {
    const id = await createWebhook('/ok', '{"team": "{{alert.name}}"}');
    const res = await call('POST', `/notification-channels/${id}/test`);
    expect(res.status).toBe(200);
    const { result, channel } = ChannelTestResponse.parse(res.body);
    expect(result).toMatchObject({ ok: true, status: 200, error: '', body: '{"message":"answered 200"}' });
    const [received] = receiver.on('/ok');
    const message = WebhookMessage.parse(received.body);
    expect(message.alert).toMatchObject({
      name: TEST_ALERT_NAME,
      type: 'metric',
      state: 'open',
      url: `${TEST_SITE}/alerting/1/alerts/0`,
    });
    expect(message.payload).toEqual({ team: TEST_ALERT_NAME });
    expect(channel.delivery.lastDeliveredAt).toBe(result.sentAt);
    expect(channel.state).toBe('delivering');
  });

  it('reports a failing receiver and records its error on the channel without disabling it', async () => {
    receiver.answer('/down', 500);
    const id = await createWebhook('/down');
    for (let i = 0; i < 6; i++) {
      const { result, channel } = ChannelTestResponse.parse(
        (await call('POST', `/notification-channels/${id}/test`)).body,
      );
      expect(result).toMatchObject({ ok: false, status: 500, error: 'unexpected response: 500 (answered 500)' });
      expect(channel.delivery).toMatchObject({
        lastError: 'unexpected response: 500 (answered 500)',
        lastErrorAt: result.sentAt,
        lastDeliveredAt: null,
      });
      expect(channel.state).toBe('delivering');
    }
  });

  it('sends to Slack and Alertmanager channels in their own formats, paused ones included', async () => {
    const slack = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/slack', {
          name: 's',
          params: { webhookUrl: `${receiver.url}/slack` },
        })
      ).body,
    ).channel;
    expect((await call('PUT', `/notification-channels/${slack.id}/paused`)).status).toBe(200);
    expect(
      ChannelTestResponse.parse((await call('POST', `/notification-channels/${slack.id}/test`)).body).result.ok,
    ).toBe(true);
    expect(JSON.stringify(receiver.on('/slack')[0].body)).toContain(TEST_ALERT_NAME);

    const am = ChannelResponse.parse(
      (
        await call('POST', '/notification-channels/webhook', {
          type: 'alertmanager',
          name: 'am',
          params: { url: `${receiver.url}/am` },
        })
      ).body,
    ).channel;
    expect(ChannelTestResponse.parse((await call('POST', `/notification-channels/${am.id}/test`)).body).result.ok).toBe(
      true,
    );
    const [alert] = receiver.on('/am')[0].body as { labels: Record<string, string> }[];
    expect(alert.labels.alertname).toBe(TEST_ALERT_NAME);
  });

  it('answers 404 {code, message} for a channel that does not exist', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await call<{ code: string; message: string }>('POST', `/notification-channels/${id}/test`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('channel_not_found');
      expect(res.body.message).toContain(id);
    }
  });
});

describe('deleting a channel that monitors notify through', () => {
  it('lists those monitors first (?channel_id), then leaves them running without it', async () => {
    const a = await createWebhook('/used-a');
    const b = await createWebhook('/used-b');
    const monitor = async (name: string, channelIds: number[]) => {
      const res = await call('POST', '/monitors/error', { name, channelIds });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return MonitorResponse.parse(res.body).monitor.id;
    };
    const both = await monitor('Both hooks', [a, b]);
    const onlyA = await monitor('Only A', [a]);
    await monitor('Only B', [b]);
    const usersOf = async (id: number | string) => {
      const res = await call('GET', `/monitors?channel_id=${id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return MonitorListResponse.parse(res.body).monitors.map((m) => m.name);
    };
    expect(await usersOf(a)).toEqual(['Only A', 'Both hooks']);
    expect(await usersOf(999_999)).toEqual([]);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await call('GET', `/monitors?channel_id=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_input', message: 'channel_id: channel_id must be a channel id' });
    }

    expect((await call('DELETE', `/notification-channels/${a}`)).status).toBe(200);
    expect(await usersOf(a)).toEqual([]);
    const show = async (id: string) => MonitorResponse.parse((await call('GET', `/monitors/${id}`)).body).monitor;
    expect(await show(both)).toMatchObject({ state: 'active', channelIds: [b] });
    expect(await show(onlyA)).toMatchObject({ state: 'active', channelIds: [] });
    // Saving a form still holding the deleted channel is refused, not stored as a dangling link.
    const stale = await call('PUT', `/monitors/${onlyA}/error`, { name: 'Only A', channelIds: [a] });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ code: 'channel_not_found' });
  });
});

describe('channel delivery state', () => {
  it('reports what the outbox holds: pending with the next try, then given up, then delivered', async () => {
    receiver.answer('/flaky', 503, 400, 200);
    const id = await createWebhook('/flaky');
    const monitor = await call('POST', '/monitors/error', { name: 'Flaky errors', channelIds: [id], params: {} });
    expect(MonitorResponse.parse(monitor.body).monitor.channelIds).toEqual([id]);

    // A real failed span, over OTLP, for the error monitor to turn into an alert.
    const spanTime = new Date();
    const t = createTestTracer('http-proto', {
      httpUrl: server.baseUrl,
      grpcUrl: `http://127.0.0.1:${server.grpcPort}`,
      dsn: `http://${PROJECT1_TOKEN}@127.0.0.1/1`,
      serviceName: 'flaky',
    });
    const span = t.tracer.startSpan('GET /flaky', { kind: SpanKind.SERVER, startTime: spanTime });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
    span.end(new Date(spanTime.getTime() + 5));
    await t.shutdown();
    clock.now = new Date(spanTime.getTime() + 2 * 60_000);
    const delivery = async () =>
      ChannelListResponse.parse((await call('GET', '/notification-channels')).body).channels.find((c) => c.id === id)!
        .delivery;

    // 503 is transient: the row stays pending, due again after its backoff.
    await server.lantern.alerting.scheduler.tick();
    let d = await delivery();
    expect(d).toMatchObject({
      pending: 1,
      failed: 0,
      lastDeliveredAt: null,
      lastError: 'unexpected response: 503 (answered 503)',
    });
    expect(Date.parse(d.nextAttemptAt!)).toBe(clock.now.getTime() + 30_000);

    // 400 is permanent: the row is given up on.
    await server.lantern.alerting.scheduler.deliver(new Date(clock.now.getTime() + 31_000));
    d = await delivery();
    expect(d).toMatchObject({
      pending: 0,
      nextAttemptAt: null,
      failed: 1,
      lastError: 'unexpected response: 400 (answered 400)',
      consecutiveFailures: 2,
    });

    // The receiver is fixed: the test button proves it and the channel shows the delivery.
    const { result } = ChannelTestResponse.parse((await call('POST', `/notification-channels/${id}/test`)).body);
    expect(result.ok).toBe(true);
    d = await delivery();
    expect(d).toMatchObject({ pending: 0, failed: 1, lastDeliveredAt: result.sentAt });
  });
});

describe('channels per project', () => {
  /** The channel API of project 2 (project 1's channels belong to the tests above). */
  const call2 = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}/api/v1/projects/2/notification-channels${path}`, {
      method,
      headers: { cookie: server.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const webhook = (name: string) => ({ name, params: { url: `${receiver.url}/cap`, payload: '' } });

  it(`holds the cap of ${MAX_CHANNELS} under concurrent creates (PostgreSQL too)`, async () => {
    const made: number[] = [];
    // Up to 10 below the cap, 30 at a time.
    for (let left = MAX_CHANNELS - 10; left > 0; left -= 30) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(30, left) }, (_, i) => call2('POST', '/webhook', webhook(`filler ${left}-${i}`))),
      );
      for (const a of batch) made.push(ChannelResponse.parse(a.body).channel.id);
    }
    // Before, nothing counted: all 30 were created, and the list (which shows MAX_CHANNELS) hid some.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call2('POST', '/webhook', webhook(`burst ${i}`))),
    );
    expect(burst.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = burst.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(20);
    for (const a of refused)
      expect([a.status, a.body]).toEqual([
        400,
        { code: 'too_many_channels', message: `a project can't have more than ${MAX_CHANNELS} notification channels` },
      ]);
    expect(ChannelListResponse.parse((await call2('GET', '')).body).channels).toHaveLength(MAX_CHANNELS);

    // Deleting one makes room for one.
    expect((await call2('DELETE', `/${made[0]}`)).status).toBe(200);
    expect((await call2('POST', '/webhook', webhook('room'))).status).toBe(200);
    expect((await call2('POST', '/webhook', webhook('no room'))).status).toBe(400);
    // Project 1 is not counted against project 2's channels.
    expect((await call('POST', '/notification-channels/webhook', webhook('project 1'))).status).toBe(200);
  });
});

describe('POST /notification-channels/email/test', () => {
  it('sends the sample alert e-mail to the signed-in user through SMTP and reports the reply', async () => {
    const res = await call('POST', '/notification-channels/email/test');
    expect(res.status).toBe(200);
    const { result } = EmailTestResponse.parse(res.body);
    expect(result).toMatchObject({ ok: true, status: 250, error: '' });
    // The project's default error monitor may e-mail the alerts of the tests above: only the test mail counts.
    const mails = smtp.mails.filter((m) => m.raw.includes(TEST_ALERT_NAME));
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['admin@lantern.local']);
  });
});

describe('the test e-mail without SMTP', () => {
  it('is refused with 400 smtp_disabled', async () => {
    const service = createChannelsService({
      db: {} as never,
      channels: {} as never,
      guard: createAddressGuard([]),
      now: () => new Date(),
      smtpEnabled: false,
      mailer: null,
      siteUrl: TEST_SITE,
      projectName: () => 'p',
    });
    await expect(service.testEmail(1, { email: 'a@b.c' })).rejects.toMatchObject({
      status: 400,
      code: 'smtp_disabled',
    });
  });
});
