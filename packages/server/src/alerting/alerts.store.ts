import type { Alert, AlertState, AlertType } from '@lantern/shared';
import type { Selectable } from 'kysely';
import { attrsText, type AlertingTables } from './alerting.migration';
import type { AlertingDb, AlertingTrx } from './db';

/** A row as read from the table. */
export type AlertRow = Selectable<AlertingTables['alerts']>;

export type NewAlert = Omit<AlertRow, 'id' | 'attrs_text'>;

const MAX_NAME = 1000;

export function truncateName(name: string): string {
  return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 3)}...`;
}

export function createAlertsStore(db: AlertingDb) {
  return {
    get: (id: number): Promise<AlertRow | undefined> =>
      db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst(),

    byIds: (projectId: number, ids: number[]): Promise<AlertRow[]> =>
      ids.length
        ? db.selectFrom('alerts').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute()
        : Promise.resolve([]),

    /** The series (attrs, attrs_hash) of a metric monitor's open alerts. */
    openMetricSeries: (monitorId: number): Promise<Pick<AlertRow, 'attrs' | 'attrs_hash'>[]> =>
      db
        .selectFrom('alerts')
        .select(['attrs', 'attrs_hash'])
        .where('monitor_id', '=', monitorId)
        .where('type', '=', 'metric')
        .where('state', '=', 'open')
        .execute(),
    lastMetricAlert: (
      trx: AlertingTrx | AlertingDb,
      monitorId: number,
      attrsHash: string,
    ): Promise<AlertRow | undefined> =>
      trx
        .selectFrom('alerts')
        .selectAll()
        .where('monitor_id', '=', monitorId)
        .where('attrs_hash', '=', attrsHash)
        .where('type', '=', 'metric')
        .orderBy('updated_at', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** The error alert of a span group: one per (project, group) forever. */
    errorAlert: (trx: AlertingTrx | AlertingDb, projectId: number, groupId: string): Promise<AlertRow | undefined> =>
      trx
        .selectFrom('alerts')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('dedup_key', '=', `error:${groupId}`)
        .executeTakeFirst(),

    /**
     * Inserts unless the dedup key exists; the new row, or null when it was a duplicate. The attrs
     * get their `alert_attrs` rows (the list's filters and facets) in the same transaction; rows
     * left by a deleted alert whose id SQLite hands out again are replaced.
     */
    async insert(trx: AlertingTrx, a: NewAlert): Promise<AlertRow | null> {
      const r = await trx
        .insertInto('alerts')
        .values({
          ...a,
          name: truncateName(a.name),
          attrs_text: attrsText(JSON.parse(a.attrs) as Record<string, unknown>),
        })
        .onConflict((oc) => oc.columns(['project_id', 'dedup_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!r) return null;
      await trx.deleteFrom('alert_attrs').where('alert_id', '=', r.id).execute();
      const attrs = Object.entries(JSON.parse(a.attrs) as Record<string, unknown>).map(([key, value]) => ({
        alert_id: r.id,
        project_id: a.project_id,
        key,
        value: String(value),
      }));
      if (attrs.length) await trx.insertInto('alert_attrs').values(attrs).execute();
      return {
        ...a,
        name: truncateName(a.name),
        id: r.id,
        attrs_text: attrsText(JSON.parse(a.attrs) as Record<string, unknown>),
      };
    },

    /** Compare-and-set on state: true when this call made the change. */
    async casUpdate(
      trx: AlertingTrx | AlertingDb,
      id: number,
      fromState: string,
      set: Partial<Pick<AlertRow, 'state' | 'params' | 'updated_at' | 'name'>>,
    ): Promise<boolean> {
      const r = await trx
        .updateTable('alerts')
        .set(set)
        .where('id', '=', id)
        .where('state', '=', fromState)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    delete: (projectId: number, ids: number[]): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const own = trx.selectFrom('alerts').select('id').where('project_id', '=', projectId).where('id', 'in', ids);
        const events = trx.selectFrom('alert_events').select('id').where('alert_id', 'in', own);
        await trx.deleteFrom('alert_notifications').where('event_id', 'in', events).execute();
        await trx.deleteFrom('alert_events').where('alert_id', 'in', own).execute();
        await trx.deleteFrom('alert_attrs').where('alert_id', 'in', own).execute();
        await trx.deleteFrom('alert_monitor_links').where('alert_id', 'in', own).execute();
        const r = await trx
          .deleteFrom('alerts')
          .where('project_id', '=', projectId)
          .where('id', 'in', ids)
          .executeTakeFirst();
        return Number(r.numDeletedRows);
      }),
  };
}

export type AlertsStore = ReturnType<typeof createAlertsStore>;

export function toAlert(r: AlertRow): Alert {
  return {
    id: r.id,
    projectId: r.project_id,
    name: r.name,
    state: r.state as AlertState,
    type: r.type as AlertType,
    monitorId: r.monitor_id,
    trackableModel: r.trackable_model,
    trackableId: r.trackable_id,
    attrs: JSON.parse(r.attrs) as Record<string, string>,
    params: JSON.parse(r.params) as Alert['params'],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
