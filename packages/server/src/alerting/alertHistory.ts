import type { AlertEvent, AlertEventName } from '@lantern/shared';
import type { AlertingDb } from './db';

/** Events shown on the alert card at most (newest first); older ones are dropped from the answer. */
export const MAX_HISTORY_EVENTS = 200;

/**
 * An alert's event history for the alert card: each event (created, recurring, closed or reopened
 * and by whom) with the notifications the outbox decided for it, their delivery state and the
 * last delivery error, read from `alert_events` and `alert_notifications`.
 */
export async function alertHistory(db: AlertingDb, alertId: number): Promise<AlertEvent[]> {
  const events = await db
    .selectFrom('alert_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.id', 'e.name', 'e.params', 'e.created_at', 'e.user_id', 'u.name as user_name'])
    .where('e.alert_id', '=', alertId)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(MAX_HISTORY_EVENTS)
    .execute();
  if (!events.length) return [];
  const notifications = await db
    .selectFrom('alert_notifications as n')
    .leftJoin('notif_channels as c', 'c.id', 'n.channel_id')
    .select([
      'n.event_id',
      'n.target',
      'n.channel_id',
      'n.recipients',
      'n.state',
      'n.attempts',
      'n.last_error',
      'n.updated_at',
      'c.name as channel_name',
      'c.type as channel_type',
    ])
    .where(
      'n.event_id',
      'in',
      events.map((e) => e.id),
    )
    .orderBy('n.id')
    .execute();
  return events.map((e) => ({
    id: e.id,
    name: e.name as AlertEventName,
    params: JSON.parse(e.params) as unknown,
    user: e.user_id === null ? null : { id: e.user_id, name: e.user_name ?? `user ${e.user_id}` },
    createdAt: e.created_at,
    notifications: notifications
      .filter((n) => n.event_id === e.id)
      .map((n) => ({
        target: n.target,
        channelId: n.channel_id,
        channelName: n.channel_name ?? '',
        channelType: n.channel_type ?? (n.target === 'email' ? 'email' : ''),
        recipients: JSON.parse(n.recipients) as string[],
        state: n.state,
        attempts: n.attempts,
        lastError: n.last_error,
        updatedAt: n.updated_at,
      })),
  }));
}
