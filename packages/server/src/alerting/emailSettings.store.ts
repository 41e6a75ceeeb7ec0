import { EmailSettings } from '@lantern/shared';
import type { AlertingDb, AlertingTrx } from './db';

/** Per user and project e-mail preferences; everything on until the user saves otherwise. */
export async function readEmailSettings(
  db: AlertingDb | AlertingTrx,
  userId: number,
  projectId: number,
): Promise<EmailSettings> {
  const row = await db
    .selectFrom('alerting_user_settings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) return EmailSettings.parse({});
  return {
    notifyOnMetrics: Boolean(row.notify_on_metrics),
    notifyOnNewErrors: Boolean(row.notify_on_new_errors),
    notifyOnRecurringErrors: Boolean(row.notify_on_recurring_errors),
    errorMatchers: JSON.parse(row.error_matchers) as EmailSettings['errorMatchers'],
  };
}

export async function writeEmailSettings(
  db: AlertingDb,
  userId: number,
  projectId: number,
  s: EmailSettings,
): Promise<void> {
  const values = {
    notify_on_metrics: s.notifyOnMetrics ? 1 : 0,
    notify_on_new_errors: s.notifyOnNewErrors ? 1 : 0,
    notify_on_recurring_errors: s.notifyOnRecurringErrors ? 1 : 0,
    error_matchers: JSON.stringify(s.errorMatchers),
  };
  await db
    .insertInto('alerting_user_settings')
    .values({ user_id: userId, project_id: projectId, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'project_id']).doUpdateSet(values))
    .execute();
}
