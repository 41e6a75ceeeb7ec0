import type { Alert, AlertState, AlertType } from '@lantern/shared';
import type { Selectable } from 'kysely';
import type { AlertingTables } from './alerting.migration';
import type { AlertingDb, AlertingTrx } from './db';

/** A row as read from the table. */
export type AlertRow = Selectable<AlertingTables['alerts']>;

export type NewAlert = Omit<AlertRow, 'id'>;

/** The list scans at most this many alerts (newest first) before filtering and faceting. */
export const MAX_LISTED_ALERTS = 10_000;
const MAX_NAME = 1000;

export function truncateName(name: string): string {
  return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 3)}...`;
}

export function createAlertsStore(db: AlertingDb) {
  return {
    get: (id: number): Promise<AlertRow | undefined> => db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst(),

    byIds: (projectId: number, ids: number[]): Promise<AlertRow[]> =>
      ids.length ? db.selectFrom('alerts').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute() : Promise.resolve([]),

    /** Newest alerts of a project by update time, optionally of one monitor and in a time range. */
    scan(projectId: number, f: { monitorId?: number; from?: string; to?: string }): Promise<AlertRow[]> {
      let q = db.selectFrom('alerts').selectAll().where('project_id', '=', projectId);
      if (f.monitorId !== undefined) q = q.where('monitor_id', '=', f.monitorId);
      if (f.from) q = q.where('updated_at', '>=', f.from);
      if (f.to) q = q.where('updated_at', '<', f.to);
      return q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(MAX_LISTED_ALERTS).execute();
    },

    /** The most recent alert of a metric monitor's series. */
    /** The series (attrs, attrs_hash) of a metric monitor's open alerts. */
    openMetricSeries: (monitorId: number): Promise<Pick<AlertRow, 'attrs' | 'attrs_hash'>[]> =>
      db.selectFrom('alerts').select(['attrs', 'attrs_hash']).where('monitor_id', '=', monitorId).where('type', '=', 'metric').where('state', '=', 'open').execute(),
    lastMetricAlert: (trx: AlertingTrx | AlertingDb, monitorId: number, attrsHash: string): Promise<AlertRow | undefined> =>
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
      trx.selectFrom('alerts').selectAll().where('project_id', '=', projectId).where('dedup_key', '=', `error:${groupId}`).executeTakeFirst(),

    /** Inserts unless the dedup key exists; the new row, or null when it was a duplicate. */
    async insert(trx: AlertingTrx, a: NewAlert): Promise<AlertRow | null> {
      const r = await trx
        .insertInto('alerts')
        .values({ ...a, name: truncateName(a.name) })
        .onConflict((oc) => oc.columns(['project_id', 'dedup_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return r ? { ...a, name: truncateName(a.name), id: r.id } : null;
    },

    /** Compare-and-set on state: true when this call made the change. */
    async casUpdate(trx: AlertingTrx | AlertingDb, id: number, fromState: string, set: Partial<Pick<AlertRow, 'state' | 'params' | 'updated_at' | 'name'>>): Promise<boolean> {
      const r = await trx.updateTable('alerts').set(set).where('id', '=', id).where('state', '=', fromState).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    delete: (projectId: number, ids: number[]): Promise<number> =>
      db.transaction().execute(async (trx) => {
        const own = trx.selectFrom('alerts').select('id').where('project_id', '=', projectId).where('id', 'in', ids);
        const events = trx.selectFrom('alert_events').select('id').where('alert_id', 'in', own);
        await trx.deleteFrom('alert_notifications').where('event_id', 'in', events).execute();
        await trx.deleteFrom('alert_events').where('alert_id', 'in', own).execute();
        const r = await trx.deleteFrom('alerts').where('project_id', '=', projectId).where('id', 'in', ids).executeTakeFirst();
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
