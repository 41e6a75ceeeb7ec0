import type { ChannelTestResult } from '@lantern/shared';
import { channelRequest } from './channelRequest';
import { describeAnswer, postJson } from './httpPost';
import type { Mailer } from './mailer';
import { emailMessage, type MessageAlert, type MessageContext, type MessageEvent } from './messages';
import type { AddressGuard } from './ssrf';

/** How much of the receiver's answer the UI gets back: enough to read an error message. */
export const TEST_BODY_CHARS = 500;
export const TEST_ALERT_NAME = 'Test notification from Lantern';

/**
 * A sample firing metric alert, formatted by the same code as real messages, so the receiver sees
 * exactly the shape it will get (the webhook's custom payload template is applied too).
 */
export function sampleAlert(projectId: number, now: Date): { alert: MessageAlert; event: MessageEvent } {
  const iso = now.toISOString();
  return {
    alert: {
      id: 0,
      projectId,
      name: TEST_ALERT_NAME,
      type: 'metric',
      state: 'open',
      createdAt: iso,
      attrs: { 'lantern.test': 'true' },
      params: {
        firing: 1,
        outlier: 42,
        minutes: 5,
        bounds: { min: null, max: 10 },
        monitor: {
          metrics: [{ name: 'lantern.test', alias: 'test' }],
          query: 'avg($test)',
          column: 'avg($test)',
          columnUnit: '',
        },
      },
    },
    event: { id: now.getTime(), name: 'created', createdAt: iso, userName: null },
  };
}

/**
 * Sends the sample now, through the SSRF guard and the real HTTP client, and reports what the
 * receiver answered. Never throws for a delivery problem: a refused address, a timeout or a 500
 * are outcomes to show, not server errors.
 */
export async function sendTestNotification(
  channel: { type: string; params: string; project_id: number },
  ctx: MessageContext,
  guard: AddressGuard,
  now: () => Date,
): Promise<ChannelTestResult> {
  const started = now();
  const { alert, event } = sampleAlert(channel.project_id, started);
  const { url, body } = channelRequest(channel, alert, event, ctx);
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  try {
    const answer = await postJson(url, body, guard);
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      status: answer.status,
      body: answer.body.slice(0, TEST_BODY_CHARS),
      error: ok ? '' : describeAnswer(answer),
      durationMs: elapsed(),
      sentAt: started.toISOString(),
    };
  } catch (err) {
    return {
      ok: false,
      status: null,
      body: '',
      error: (err as Error).message,
      durationMs: elapsed(),
      sentAt: started.toISOString(),
    };
  }
}

/**
 * Sends the sample alert e-mail to one address now, through the configured SMTP server, and
 * reports the server's answer: `status` is its reply code (250), `body` its reply text.
 */
export async function sendTestEmail(
  mailer: Mailer,
  to: string,
  projectId: number,
  ctx: MessageContext,
  now: () => Date,
): Promise<ChannelTestResult> {
  const started = now();
  const { alert, event } = sampleAlert(projectId, started);
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  try {
    const reply = await mailer.send({ to: [to], ...emailMessage(alert, event, ctx) });
    const code = /^(\d{3})/.exec(reply);
    return {
      ok: true,
      status: code ? Number(code[1]) : null,
      body: reply.slice(0, TEST_BODY_CHARS),
      error: '',
      durationMs: elapsed(),
      sentAt: started.toISOString(),
    };
  } catch (err) {
    const code = (err as { responseCode?: unknown }).responseCode;
    return {
      ok: false,
      status: typeof code === 'number' ? code : null,
      body: '',
      error: `smtp: ${(err as Error).message}`,
      durationMs: elapsed(),
      sentAt: started.toISOString(),
    };
  }
}
