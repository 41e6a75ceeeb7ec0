import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelResponse, ChannelTestResponse, WebhookMessage } from '@lantern/shared';
import { removeDataDir, tempDataDir } from '../../../../e2e/harness';
import { startHttpReceiver, type HttpReceiver } from '../../../../e2e/receivers';
import { startAlertingServer, TEST_SITE, type AlertingTestServer } from './alertingTestServer';
import { TEST_ALERT_NAME } from './delivery/testNotification';

/** The channel test button's endpoint against the real server and a real local receiver. */
let dataDir: string;
let receiver: HttpReceiver;
let server: AlertingTestServer;

beforeAll(async () => {
  dataDir = tempDataDir();
  receiver = await startHttpReceiver();
  server = await startAlertingServer({ dataDir, smtpPort: 1, clock: { now: new Date() } });
});
afterAll(async () => {
  await server?.lantern.close();
  await receiver?.close();
  if (dataDir) removeDataDir(dataDir);
});

const call = <T = unknown>(method: string, path: string, body?: unknown) => server.call<T>(method, path, body);

async function createWebhook(path: string, payload = ''): Promise<number> {
  const res = await call('POST', '/notification-channels/webhook', { name: `hook ${path}`, params: { url: `${receiver.url}${path}`, payload } });
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
    expect(message.alert).toMatchObject({ name: TEST_ALERT_NAME, type: 'metric', state: 'open', url: `${TEST_SITE}/alerting/1/alerts/0` });
    expect(message.payload).toEqual({ team: TEST_ALERT_NAME });
    expect(channel.delivery.lastDeliveredAt).toBe(result.sentAt);
    expect(channel.state).toBe('delivering');
  });

  it('reports a failing receiver and records its error on the channel without disabling it', async () => {
    receiver.answer('/down', 500);
    const id = await createWebhook('/down');
    for (let i = 0; i < 6; i++) {
      const { result, channel } = ChannelTestResponse.parse((await call('POST', `/notification-channels/${id}/test`)).body);
      expect(result).toMatchObject({ ok: false, status: 500, error: 'unexpected response: 500 (answered 500)' });
      expect(channel.delivery).toMatchObject({ lastError: 'unexpected response: 500 (answered 500)', lastErrorAt: result.sentAt, lastDeliveredAt: null });
      expect(channel.state).toBe('delivering');
    }
  });

  it('sends to Slack and Alertmanager channels in their own formats, paused ones included', async () => {
    const slack = ChannelResponse.parse((await call('POST', '/notification-channels/slack', { name: 's', params: { webhookUrl: `${receiver.url}/slack` } })).body).channel;
    expect((await call('PUT', `/notification-channels/${slack.id}/paused`)).status).toBe(200);
    expect(ChannelTestResponse.parse((await call('POST', `/notification-channels/${slack.id}/test`)).body).result.ok).toBe(true);
    expect(JSON.stringify(receiver.on('/slack')[0].body)).toContain(TEST_ALERT_NAME);

    const am = ChannelResponse.parse((await call('POST', '/notification-channels/webhook', { type: 'alertmanager', name: 'am', params: { url: `${receiver.url}/am` } })).body).channel;
    expect(ChannelTestResponse.parse((await call('POST', `/notification-channels/${am.id}/test`)).body).result.ok).toBe(true);
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
