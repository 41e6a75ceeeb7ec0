import type { AlertEventName, EmailSettings, ErrorMonitorParams } from '@lantern/shared';
import type { AlertRow } from './alerts.store';
import type { ChannelsStore } from './channels.store';
import type { AlertingTrx } from './db';
import { errorMonitorWants, matchersHold } from './errorCheck';
import type { MonitorRow, MonitorsStore } from './monitors.store';
import { readEmailSettings } from './emailSettings.store';

/**
 * Writes an alert event and, in the same transaction, its notification outbox rows (reference
 * alerting §2.9, §3.1): one row per delivering channel of the concerned monitors, and one e-mail
 * row with every recipient. Deciding the targets when the event is written means a restart
 * delivers exactly the decided set, and a paused channel gets no row.
 */
export interface EventDeps {
  monitors: MonitorsStore;
  channels: ChannelsStore;
  emailEnabled: boolean;
  /**
   * The clock events of the evaluator are stamped with, read in the transaction that writes them
   * (after the alert's state it changes): a user's close or reopen that committed before is then
   * always earlier in the history than the evaluator's reopen or recount that follows it.
   */
  now: () => Date;
}

export interface NewEvent {
  alert: AlertRow;
  name: AlertEventName;
  params: unknown;
  userId: number | null;
  createdAt: Date;
  /** Attributes of the error alert's current span, for error-monitor matchers; metric alerts: unused. */
  spanAttrs: Record<string, string>;
}

export async function emitAlertEvent(trx: AlertingTrx, deps: EventDeps, e: NewEvent, now: Date): Promise<number> {
  const { id: eventId } = await trx
    .insertInto('alert_events')
    .values({
      project_id: e.alert.project_id,
      alert_id: e.alert.id,
      user_id: e.userId,
      name: e.name,
      params: JSON.stringify(e.params),
      created_at: e.createdAt.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const monitors = await concernedMonitors(trx, deps, e);
  // An error alert is now one of these monitors' alerts (their counts and `monitor:<id>` in the list).
  if (e.alert.type === 'error' && monitors.length)
    await trx
      .insertInto('alert_monitor_links')
      .values(monitors.map((m) => ({ monitor_id: m.id, alert_id: e.alert.id })))
      .onConflict((oc) => oc.columns(['monitor_id', 'alert_id']).doNothing())
      .execute();
  const channels = await deps.channels.deliveringForMonitors(
    trx,
    monitors.map((m) => m.id),
  );
  const rows: { target: string; channel_id: number | null; recipients: string }[] = channels.map((c) => ({
    target: `channel:${c.id}`,
    channel_id: c.id,
    recipients: '[]',
  }));
  if (deps.emailEnabled && monitors.some((m) => m.notify_everyone_by_email)) {
    const recipients = await emailRecipients(trx, e);
    if (recipients.length) rows.push({ target: 'email', channel_id: null, recipients: JSON.stringify(recipients) });
  }
  if (rows.length) {
    const at = now.toISOString();
    await trx
      .insertInto('alert_notifications')
      .values(
        rows.map((r) => ({
          ...r,
          project_id: e.alert.project_id,
          event_id: eventId,
          state: 'pending',
          attempts: 0,
          next_attempt_at: at,
          last_error: '',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  return eventId;
}

async function concernedMonitors(trx: AlertingTrx, deps: EventDeps, e: NewEvent): Promise<MonitorRow[]> {
  if (e.alert.type === 'metric') {
    const m = await trx.selectFrom('monitors').selectAll().where('id', '=', e.alert.monitor_id).executeTakeFirst();
    return m ? [m] : [];
  }
  return (await deps.monitors.activeErrorMonitors(trx, e.alert.project_id)).filter((m) =>
    errorMonitorWants(JSON.parse(m.params) as ErrorMonitorParams, e.name, e.spanAttrs),
  );
}

/** Users whose per-project settings (all on when never saved) want this kind of alert. */
async function emailRecipients(trx: AlertingTrx, e: NewEvent): Promise<string[]> {
  const users = await trx.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
  const out: string[] = [];
  for (const u of users) {
    const s = await readEmailSettings(trx, u.id, e.alert.project_id);
    if (wantsEmail(s, e)) out.push(u.email);
  }
  return out;
}

function wantsEmail(s: EmailSettings, e: NewEvent): boolean {
  if (e.alert.type === 'metric') return s.notifyOnMetrics;
  const flag =
    e.name === 'created'
      ? s.notifyOnNewErrors
      : e.name === 'recurring'
        ? s.notifyOnRecurringErrors
        : s.notifyOnNewErrors || s.notifyOnRecurringErrors;
  return (
    flag &&
    matchersHold(
      s.errorMatchers.map((m) => ({ ...m, op: '=' as const })),
      e.spanAttrs,
    )
  );
}
