import type { AlertEventName, ErrorAlertParams } from '@lantern/shared';
import type { Logger } from 'pino';
import type { AlertRow } from '../alerts.store';
import { toAlert } from '../alerts.store';
import type { ChannelRow, ChannelsStore } from '../channels.store';
import type { AlertingDb } from '../db';
import { channelRequest } from './channelRequest';
import { describeAnswer, postJson } from './httpPost';
import { isPermanentMailError, type Mailer } from './mailer';
import { emailMessage, type MessageAlert, type MessageContext, type MessageEvent } from './messages';
import { RefusedAddressError, type AddressGuard } from './ssrf';

/**
 * The delivery worker: sends due outbox rows (alert_notifications) and records the outcome per row
 * and per channel. Transient failures (network, timeout, 5xx, 408, 429) retry with exponential
 * backoff; permanent ones (other 4xx, refused address) fail the row at once, and a channel with
 * repeated permanent failures (or a Slack 404: the webhook is gone) is disabled. A channel that is
 * not `delivering` when its turn comes sends nothing.
 *
 * Delivery is at least once: a crash between the receiver's 2xx and the row update sends that one
 * message again after restart. The webhook message's `id` (the event id) lets receivers drop it.
 */
export const MAX_ATTEMPTS = 16;
export const DISABLE_AFTER_PERMANENT_FAILURES = 5;
const BATCH = 100;

export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly disableChannel = false,
  ) {
    super(message);
  }
}

export interface DeliveryDeps {
  db: AlertingDb;
  channels: ChannelsStore;
  guard: AddressGuard;
  mailer: Mailer | null;
  siteUrl: string;
  projectName(projectId: number): string;
  /**
   * The attributes of an error alert's span (its params' trace and span), which its e-mail lists
   * (reference alerting §3.3); null when the span is gone (past retention).
   */
  spanAttrs?(projectId: number, traceId: string, spanId: string): Promise<Record<string, string> | null>;
  log: Logger;
}

export function createDelivery(deps: DeliveryDeps) {
  const { db } = deps;

  async function send(
    row: { channel_id: number | null; recipients: string },
    channel: ChannelRow | undefined,
    alert: MessageAlert,
    event: MessageEvent,
  ): Promise<void> {
    const ctx: MessageContext = { siteUrl: deps.siteUrl, projectName: deps.projectName(alert.projectId) };
    if (row.channel_id === null) {
      if (!deps.mailer) throw new DeliveryError('smtp is disabled in the config', true);
      const message = emailMessage(await withSpanAttrs(alert), event, ctx);
      try {
        await deps.mailer.send({ to: JSON.parse(row.recipients) as string[], ...message });
      } catch (err) {
        throw new DeliveryError(`smtp: ${(err as Error).message}`, isPermanentMailError(err));
      }
      return;
    }
    const { url, body } = channelRequest(channel!, alert, event, ctx);
    let answer;
    try {
      answer = await postJson(url, body, deps.guard);
    } catch (err) {
      throw new DeliveryError((err as Error).message, err instanceof RefusedAddressError);
    }
    if (answer.status >= 200 && answer.status < 300) return;
    const permanent = answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429;
    throw new DeliveryError(describeAnswer(answer), permanent, channel!.type === 'slack' && answer.status === 404);
  }

  /**
   * An error alert with its span's attributes in place of the few the alert keeps for the list's
   * facets. When the span is gone or cannot be read, the message goes out with the alert's own:
   * a message with fewer attributes beats one held back (the reference skipped it).
   */
  async function withSpanAttrs(alert: MessageAlert): Promise<MessageAlert> {
    if (alert.type !== 'error' || !deps.spanAttrs) return alert;
    const { traceId, spanId } = alert.params as ErrorAlertParams;
    try {
      const attrs = await deps.spanAttrs(alert.projectId, traceId, spanId);
      return attrs ? { ...alert, attrs: { ...alert.attrs, ...attrs } } : alert;
    } catch (err) {
      deps.log.warn({ err, alertId: alert.id }, "the alert's span could not be read: e-mailing the alert's attributes");
      return alert;
    }
  }

  return {
    /** Sends every row due at `now`; returns how many were sent. */
    async deliverDue(now: Date): Promise<{ sent: number; failed: number; skipped: number }> {
      const counts = { sent: 0, failed: 0, skipped: 0 };
      const rows = await db
        .selectFrom('alert_notifications')
        .selectAll()
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', now.toISOString())
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const finish = (
          state: string,
          set: { attempts?: number; last_error?: string; next_attempt_at?: string } = {},
        ) =>
          db
            .updateTable('alert_notifications')
            .set({ state, updated_at: now.toISOString(), ...set })
            .where('id', '=', row.id)
            .where('state', '=', 'pending')
            .execute();
        const event = await db.selectFrom('alert_events').selectAll().where('id', '=', row.event_id).executeTakeFirst();
        const alertRow =
          event && (await db.selectFrom('alerts').selectAll().where('id', '=', event.alert_id).executeTakeFirst());
        const channel = row.channel_id === null ? undefined : await deps.channels.get(row.channel_id);
        if (!event || !alertRow || (row.channel_id !== null && channel?.state !== 'delivering')) {
          await finish('skipped', {
            last_error: !event || !alertRow ? 'alert deleted' : `channel ${channel?.state ?? 'deleted'}`,
          });
          counts.skipped++;
          continue;
        }
        const user =
          event.user_id === null
            ? undefined
            : await db.selectFrom('users').select(['name', 'email']).where('id', '=', event.user_id).executeTakeFirst();
        const messageEvent: MessageEvent = {
          id: event.id,
          name: event.name as AlertEventName,
          createdAt: event.created_at,
          userName: event.user_id === null ? null : user?.name || user?.email.split('@')[0] || 'a deleted user',
        };
        try {
          await send(row, channel, messageAlert(alertRow, event.params), messageEvent);
          await finish('sent', { attempts: row.attempts + 1, last_error: '' });
          if (channel) await deps.channels.recordSuccess(channel.id, now);
          counts.sent++;
        } catch (err) {
          const e = err instanceof DeliveryError ? err : new DeliveryError(String(err), false);
          const attempts = row.attempts + 1;
          const giveUp = e.permanent || attempts >= MAX_ATTEMPTS;
          if (giveUp) await finish('failed', { attempts, last_error: e.message });
          else
            await finish('pending', {
              attempts,
              last_error: e.message,
              next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
            });
          if (channel) {
            const disable =
              e.disableChannel || (e.permanent && channel.consecutive_failures + 1 >= DISABLE_AFTER_PERMANENT_FAILURES);
            await deps.channels.recordFailure(channel.id, e.message, now, disable);
          }
          deps.log.warn(
            { notificationId: row.id, channelId: row.channel_id, attempts, err: e.message, giveUp },
            'alert notification failed',
          );
          counts.failed++;
        }
      }
      return counts;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;

/**
 * The alert as the event saw it: a `created`/`recurring`/firing event carries the alert params of
 * that moment, so a later change does not rewrite what an earlier notification says.
 */
function messageAlert(row: AlertRow, eventParams: string): MessageAlert {
  const a = toAlert(row);
  const p = JSON.parse(eventParams) as Record<string, unknown>;
  const stateChange = 'state' in p && 'oldState' in p;
  const params = stateChange ? a.params : (p as unknown as MessageAlert['params']);
  // Every event that carries alert params (created, recurring, firing again) means "open".
  const state = stateChange ? (p.state as 'open' | 'closed') : 'open';
  return {
    id: a.id,
    projectId: a.projectId,
    name: a.name,
    type: a.type,
    state,
    createdAt: a.createdAt,
    attrs: a.attrs,
    params,
  };
}
