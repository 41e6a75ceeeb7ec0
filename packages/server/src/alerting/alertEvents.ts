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
  const rows: OutboxRow[] = channels.map((c) => ({
    target: `channel:${c.id}`,
    channel_id: c.id,
    recipients: '[]',
  }));
  if (deps.emailEnabled && monitors.some((m) => m.notify_everyone_by_email)) {
    const recipients = await emailRecipients(trx, e);
    if (recipients.length) rows.push({ target: 'email', channel_id: null, recipients: JSON.stringify(recipients) });
  }
  await queueNotifications(trx, e.alert.project_id, eventId, rows, now);
  return eventId;
}

type OutboxRow = { target: string; channel_id: number | null; recipients: string };

async function queueNotifications(
  trx: AlertingTrx,
  projectId: number,
  eventId: number,
  rows: OutboxRow[],
  now: Date,
): Promise<void> {
  if (!rows.length) return;
  const at = now.toISOString();
  await trx
    .insertInto('alert_notifications')
    .values(
      rows.map((r) => ({
        ...r,
        project_id: projectId,
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

/**
 * An open error alert whose new spans match error monitors it is not yet one of (a monitor created
 * after the alert opened under another one, e.g. the default "Notify on all errors", or whose
 * matchers changed since): it becomes theirs too (their open count, `monitor:<id>` in the list), and
 * their channels get its opening message (the `created` event's: the error is new to them), each
 * channel and the e-mail only if none was sent for this alert yet. Once: a monitor the alert is
 * linked to is not told again this way. `monitors`: the project's active error monitors.
 * Returns how many monitors took the alert.
 */
export async function adoptErrorAlert(
  trx: AlertingTrx,
  deps: EventDeps,
  alert: AlertRow,
  spanAttrs: Record<string, string>,
  monitors: readonly MonitorRow[],
  now: Date,
): Promise<number> {
  const wanting = monitors.filter((m) =>
    errorMonitorWants(JSON.parse(m.params) as ErrorMonitorParams, 'created', spanAttrs),
  );
  if (!wanting.length) return 0;
  const linked = new Set(
    (
      await trx
        .selectFrom('alert_monitor_links')
        .select('monitor_id')
        .where('alert_id', '=', alert.id)
        .where(
          'monitor_id',
          'in',
          wanting.map((m) => m.id),
        )
        .execute()
    ).map((r) => r.monitor_id),
  );
  const fresh = wanting.filter((m) => !linked.has(m.id));
  if (!fresh.length) return 0;
  await trx
    .insertInto('alert_monitor_links')
    .values(fresh.map((m) => ({ monitor_id: m.id, alert_id: alert.id })))
    .onConflict((oc) => oc.columns(['monitor_id', 'alert_id']).doNothing())
    .execute();

  const events = await trx
    .selectFrom('alert_events')
    .select(['id', 'name'])
    .where('alert_id', '=', alert.id)
    .orderBy('id')
    .execute();
  const opening = events.find((e) => e.name === 'created') ?? events.at(-1);
  if (!opening) return fresh.length;
  const sent = await trx
    .selectFrom('alert_notifications')
    .select(['target'])
    .where(
      'event_id',
      'in',
      events.map((e) => e.id),
    )
    .execute();
  const told = new Set(sent.map((n) => n.target));
  const rows: OutboxRow[] = (
    await deps.channels.deliveringForMonitors(
      trx,
      fresh.map((m) => m.id),
    )
  )
    .filter((c) => !told.has(`channel:${c.id}`))
    .map((c) => ({ target: `channel:${c.id}`, channel_id: c.id, recipients: '[]' }));
  if (deps.emailEnabled && !told.has('email') && fresh.some((m) => m.notify_everyone_by_email)) {
    const recipients = await emailRecipients(trx, {
      alert,
      name: 'created',
      params: null,
      userId: null,
      createdAt: now,
      spanAttrs,
    });
    if (recipients.length) rows.push({ target: 'email', channel_id: null, recipients: JSON.stringify(recipients) });
  }
  await queueNotifications(trx, alert.project_id, opening.id, rows, now);
  return fresh.length;
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
