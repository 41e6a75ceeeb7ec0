import { PostgresAdapter, type Generated, type Kysely, type Migration } from 'kysely';

/**
 * Metadata migration `0004_alerting`: monitors, channels and their links, alerts, alert events,
 * the notification outbox, per-user e-mail settings, the evaluator lease and the error-scan cursor.
 * Times are ISO-8601 UTC text (same width, so they compare as text); JSON is text; booleans are 0/1,
 * so one definition works on SQLite and PostgreSQL. No foreign keys: the stores delete dependants.
 */
export const alertingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const id = db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
    await db.schema
      .createTable('monitors')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('state_reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('notify_everyone_by_email', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text')
      .addColumn('last_check_at', 'text')
      .execute();
    await db.schema.createIndex('monitors_project_idx').on('monitors').columns(['project_id', 'created_at']).execute();

    await db.schema
      .createTable('notif_channels')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('last_delivered_at', 'text')
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_error_at', 'text')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('monitor_channels')
      .addColumn('monitor_id', 'integer', (c) => c.notNull())
      .addColumn('channel_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_channels_pk', ['monitor_id', 'channel_id'])
      .execute();
    await db.schema.createIndex('monitor_channels_channel_idx').on('monitor_channels').column('channel_id').execute();

    await db.schema
      .createTable('alerts')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('dedup_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('monitor_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('trackable_model', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('trackable_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('attrs', 'text', (c) => c.notNull())
      .addColumn('attrs_hash', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('alerts_dedup_unq', ['project_id', 'dedup_key'])
      .execute();
    await db.schema
      .createIndex('alerts_project_updated_idx')
      .on('alerts')
      .columns(['project_id', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('alerts_monitor_idx')
      .on('alerts')
      .columns(['monitor_id', 'attrs_hash', 'updated_at'])
      .execute();
    await db.schema.createIndex('alerts_trackable_idx').on('alerts').columns(['project_id', 'trackable_id']).execute();

    await db.schema
      .createTable('alert_events')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('alert_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alert_events_alert_idx').on('alert_events').column('alert_id').execute();

    // The outbox: one row per (event, target), written in the transaction that writes the event,
    // so a restart neither loses nor repeats a notification decision.
    await db.schema
      .createTable('alert_notifications')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'integer')
      .addColumn('recipients', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('alert_notifications_unq', ['event_id', 'target'])
      .execute();
    await db.schema
      .createIndex('alert_notifications_due_idx')
      .on('alert_notifications')
      .columns(['state', 'next_attempt_at'])
      .execute();

    await db.schema
      .createTable('alerting_user_settings')
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('notify_on_metrics', 'integer', (c) => c.notNull())
      .addColumn('notify_on_new_errors', 'integer', (c) => c.notNull())
      .addColumn('notify_on_recurring_errors', 'integer', (c) => c.notNull())
      .addColumn('error_matchers', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alerting_user_settings_pk', ['user_id', 'project_id'])
      .execute();

    await db.schema
      .createTable('alerting_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('alerting_error_cursors')
      .addColumn('project_id', 'integer', (c) => c.primaryKey())
      .addColumn('scanned_to', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * Metadata migration `0006_alert_list`: the alert list filters, facets, sorts and pages in SQL
 * (not over the newest N alerts in memory). Attributes get a row each in `alert_attrs` (an alert's
 * attrs never change after insert), so `attrs[key]=value` filters and per-key facet counts use an
 * index; the list's sort orders get indexes of their own.
 */
export const alertListMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_attrs')
      .addColumn('alert_id', 'integer', (c) => c.notNull())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_attrs_pk', ['alert_id', 'key'])
      .execute();
    await db.schema
      .createIndex('alert_attrs_facet_idx')
      .on('alert_attrs')
      .columns(['project_id', 'key', 'value'])
      .execute();
    // The attribute values, lower-cased and joined, so a search word is one LIKE per alert.
    await db.schema
      .alterTable('alerts')
      .addColumn('attrs_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createIndex('alerts_project_state_updated_idx')
      .on('alerts')
      .columns(['project_id', 'state', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('alerts_project_created_idx')
      .on('alerts')
      .columns(['project_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('alerts_project_state_created_idx')
      .on('alerts')
      .columns(['project_id', 'state', 'created_at'])
      .execute();
    await db.schema.createIndex('alert_notifications_event_idx').on('alert_notifications').column('event_id').execute();

    // Existing alerts: one row per attribute of their JSON attrs.
    const alerts = db as unknown as Kysely<Pick<AlertingTables, 'alerts' | 'alert_attrs'>>;
    let after = 0;
    for (;;) {
      const rows = await alerts
        .selectFrom('alerts')
        .select(['id', 'project_id', 'attrs'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (!rows.length) break;
      after = rows[rows.length - 1].id;
      const values = rows.flatMap((r) =>
        Object.entries(JSON.parse(r.attrs) as Record<string, string>).map(([key, value]) => ({
          alert_id: r.id,
          project_id: r.project_id,
          key,
          value: String(value),
        })),
      );
      for (let i = 0; i < values.length; i += 200)
        await alerts
          .insertInto('alert_attrs')
          .values(values.slice(i, i + 200))
          .execute();
      for (const r of rows)
        await alerts
          .updateTable('alerts')
          .set({ attrs_text: attrsText(JSON.parse(r.attrs) as Record<string, unknown>) })
          .where('id', '=', r.id)
          .execute();
    }
  },
};

/**
 * Metadata migration `0008_project_seeds`: a project gets the default error monitor ("Notify on all
 * errors", reference alerting §1) once, the first time Lantern starts with it in the config, and
 * never again after a user deletes it. Projects that already have monitors or alerts count as
 * seeded, so an upgrade adds no monitor to them.
 */
export const projectSeedsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alerting_seeded_projects')
      .addColumn('project_id', 'integer', (c) => c.primaryKey())
      .addColumn('seeded_at', 'text', (c) => c.notNull())
      .execute();
    const known = db as unknown as Kysely<Pick<AlertingTables, 'monitors' | 'alerts' | 'alerting_seeded_projects'>>;
    const ids = await known
      .selectFrom('monitors')
      .select('project_id')
      .union(known.selectFrom('alerts').select('project_id'))
      .execute();
    const seededAt = new Date().toISOString();
    for (let i = 0; i < ids.length; i += 200)
      await known
        .insertInto('alerting_seeded_projects')
        .values(ids.slice(i, i + 200).map((r) => ({ project_id: r.project_id, seeded_at: seededAt })))
        .execute();
  },
};

/**
 * Metadata migration `0009_alert_monitor_links`: error alerts belong to no monitor (monitor_id 0;
 * any number of error monitors may match one), so the error monitors that matched an alert's
 * events are recorded here, for their alert counts and the alert list's `monitor:<id>` filter.
 */
export const alertMonitorLinksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_monitor_links')
      .addColumn('monitor_id', 'integer', (c) => c.notNull())
      .addColumn('alert_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_monitor_links_pk', ['monitor_id', 'alert_id'])
      .execute();
    await db.schema.createIndex('alert_monitor_links_alert_idx').on('alert_monitor_links').column('alert_id').execute();
  },
};

/** `alerts.attrs_text`: what a search word is matched against besides the name. */
export function attrsText(attrs: Record<string, unknown>): string {
  return Object.values(attrs)
    .map((v) => String(v).toLowerCase())
    .join('\n');
}

export type AlertingTables = {
  monitors: {
    id: Generated<number>;
    project_id: number;
    name: string;
    state: string;
    state_reason: string;
    notify_everyone_by_email: number;
    type: string;
    params: string;
    created_at: string;
    updated_at: string | null;
    last_check_at: string | null;
  };
  notif_channels: {
    id: Generated<number>;
    project_id: number;
    name: string;
    type: string;
    state: string;
    params: string;
    last_delivered_at: string | null;
    last_error: string;
    last_error_at: string | null;
    consecutive_failures: number;
    created_at: string;
  };
  monitor_channels: { monitor_id: number; channel_id: number };
  alerts: {
    id: Generated<number>;
    project_id: number;
    dedup_key: string;
    name: string;
    state: string;
    type: string;
    monitor_id: number;
    trackable_model: string;
    trackable_id: string;
    attrs: string;
    attrs_hash: string;
    params: string;
    created_at: string;
    updated_at: string;
    /** Migration 0006; written by the alerts store from attrs. */
    attrs_text: Generated<string>;
  };
  alert_events: {
    id: Generated<number>;
    project_id: number;
    alert_id: number;
    user_id: number | null;
    name: string;
    params: string;
    created_at: string;
  };
  alert_notifications: {
    id: Generated<number>;
    project_id: number;
    event_id: number;
    target: string;
    channel_id: number | null;
    recipients: string;
    state: string;
    attempts: number;
    next_attempt_at: string;
    last_error: string;
    created_at: string;
    updated_at: string;
  };
  alerting_user_settings: {
    user_id: number;
    project_id: number;
    notify_on_metrics: number;
    notify_on_new_errors: number;
    notify_on_recurring_errors: number;
    error_matchers: string;
  };
  alerting_leases: { name: string; holder: string; expires_at: string };
  /** One row per attribute of an alert (migration 0006), for SQL filters and facets. */
  alert_attrs: { alert_id: number; project_id: number; key: string; value: string };
  alerting_error_cursors: { project_id: number; scanned_to: string };
  /** The error monitors that matched an error alert's events (migration 0009). */
  alert_monitor_links: { monitor_id: number; alert_id: number };
  /** Projects that got their default monitors (migration 0008). */
  alerting_seeded_projects: { project_id: number; seeded_at: string };
};
