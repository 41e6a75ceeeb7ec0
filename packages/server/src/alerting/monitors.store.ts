import {
  MAX_MONITORS,
  type ErrorMonitorParams,
  type MetricMonitorParams,
  type Monitor,
  type MonitorState,
  type MonitorType,
} from '@lantern/shared';
import type { Selectable } from 'kysely';
import { projectHasRoom } from '../storage/metadata';
import type { AlertingTables } from './alerting.migration';
import type { AlertingDb, AlertingTrx } from './db';

/** A row as read from the table. */
export type MonitorRow = Selectable<AlertingTables['monitors']>;

export interface MonitorValues {
  name: string;
  notifyEveryoneByEmail: boolean;
  params: MetricMonitorParams | ErrorMonitorParams;
  channelIds: number[];
}

/** Persistence of monitors and their channel links. Project checks are the service's job. */
export function createMonitorsStore(db: AlertingDb) {
  const linkChannels = async (trx: AlertingTrx, monitorId: number, channelIds: number[]) => {
    await trx.deleteFrom('monitor_channels').where('monitor_id', '=', monitorId).execute();
    const unique = [...new Set(channelIds)];
    if (unique.length)
      await trx
        .insertInto('monitor_channels')
        .values(unique.map((channel_id) => ({ monitor_id: monitorId, channel_id })))
        .execute();
  };

  const insertMonitor = async (
    trx: AlertingTrx,
    projectId: number,
    type: MonitorType,
    v: MonitorValues,
    now: Date,
  ): Promise<number> => {
    const { id } = await trx
      .insertInto('monitors')
      .values({
        project_id: projectId,
        name: v.name,
        state: 'active',
        state_reason: '',
        notify_everyone_by_email: v.notifyEveryoneByEmail ? 1 : 0,
        type,
        params: JSON.stringify(v.params),
        created_at: now.toISOString(),
        updated_at: null,
        last_check_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await linkChannels(trx, id, v.channelIds);
    return id;
  };

  return {
    get: (id: number): Promise<MonitorRow | undefined> =>
      db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst(),

    async list(projectId: number, opts: { state?: MonitorState; channel_id?: number; page: number; limit: number }) {
      let q = db.selectFrom('monitors').where('project_id', '=', projectId);
      if (opts.state) q = q.where('state', '=', opts.state);
      if (opts.channel_id !== undefined)
        q = q.where('id', 'in', (eb) =>
          eb.selectFrom('monitor_channels').select('monitor_id').where('channel_id', '=', opts.channel_id!),
        );
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(opts.limit)
        .offset((opts.page - 1) * opts.limit)
        .execute();
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const states = await db
        .selectFrom('monitors')
        .where('project_id', '=', projectId)
        .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('state')
        .execute();
      return {
        rows,
        count: Number(total?.n ?? 0),
        states: states.map((s) => ({ state: s.state as MonitorState, count: Number(s.count) })),
      };
    },

    /** Open and closed alert counts per monitor: its own (metric) alerts and the error alerts it matched. */
    async alertCounts(monitorIds: number[]): Promise<Map<number, { open: number; closed: number }>> {
      const out = new Map<number, { open: number; closed: number }>();
      if (!monitorIds.length) return out;
      const own = await db
        .selectFrom('alerts')
        .where('monitor_id', 'in', monitorIds)
        .select(['monitor_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['monitor_id', 'state'])
        .execute();
      const matched = await db
        .selectFrom('alert_monitor_links as l')
        .innerJoin('alerts', 'alerts.id', 'l.alert_id')
        .where('l.monitor_id', 'in', monitorIds)
        .select(['l.monitor_id', 'alerts.state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['l.monitor_id', 'alerts.state'])
        .execute();
      for (const r of [...own, ...matched]) {
        const c = out.get(r.monitor_id) ?? { open: 0, closed: 0 };
        if (r.state === 'open') c.open += Number(r.n);
        else c.closed += Number(r.n);
        out.set(r.monitor_id, c);
      }
      return out;
    },

    channelIds: async (monitorId: number): Promise<number[]> =>
      (
        await db
          .selectFrom('monitor_channels')
          .select('channel_id')
          .where('monitor_id', '=', monitorId)
          .orderBy('channel_id')
          .execute()
      ).map((r) => r.channel_id),

    /**
     * A new monitor, unless the project has MAX_MONITORS already ('full', nothing written). The count
     * and the insert run in one transaction under the project's lock (`projectHasRoom`), so
     * concurrent creates count one after the other.
     */
    create: (projectId: number, type: MonitorType, v: MonitorValues, now: Date): Promise<number | 'full'> =>
      db.transaction().execute(async (trx) => {
        if (!(await projectHasRoom(trx, 'monitors', projectId, MAX_MONITORS))) return 'full';
        return insertMonitor(trx, projectId, type, v, now);
      }),

    /**
     * Creates `v` as the project's default monitor unless the project was seeded before (one
     * transaction, so two nodes starting at once seed it once). True when it was created now.
     */
    seedDefault: (projectId: number, type: MonitorType, v: MonitorValues, now: Date): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const fresh = await trx
          .insertInto('alerting_seeded_projects')
          .values({ project_id: projectId, seeded_at: now.toISOString() })
          .onConflict((oc) => oc.column('project_id').doNothing())
          .returning('project_id')
          .executeTakeFirst();
        if (fresh) await insertMonitor(trx, projectId, type, v, now);
        return Boolean(fresh);
      }),

    /** Replaces name, e-mail flag, params and channel links; never resets state or alerts. */
    update: (id: number, v: MonitorValues, now: Date): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx
          .updateTable('monitors')
          .set({
            name: v.name,
            notify_everyone_by_email: v.notifyEveryoneByEmail ? 1 : 0,
            params: JSON.stringify(v.params),
            updated_at: now.toISOString(),
          })
          .where('id', '=', id)
          .execute();
        await linkChannels(trx, id, v.channelIds);
      }),

    async setState(id: number, state: MonitorState, reason = ''): Promise<void> {
      await db.updateTable('monitors').set({ state, state_reason: reason }).where('id', '=', id).execute();
    },

    /**
     * The evaluator's state update: compare-and-set against the state read at the start of the
     * check, so a pause made meanwhile wins.
     */
    async casCheckResult(id: number, from: string, to: MonitorState, reason: string, checkedAt: Date): Promise<void> {
      await db
        .updateTable('monitors')
        .set({ state: to, state_reason: reason, last_check_at: checkedAt.toISOString() })
        .where('id', '=', id)
        .where('state', '=', from)
        .execute();
    },

    /**
     * Deletes a monitor with its channel links, its alerts and their events and notifications; the
     * error alerts it matched stay (they belong to the project), without the link.
     */
    delete: (id: number): Promise<void> =>
      db.transaction().execute(async (trx) => {
        const alertIds = trx.selectFrom('alerts').select('id').where('monitor_id', '=', id);
        const eventIds = trx.selectFrom('alert_events').select('id').where('alert_id', 'in', alertIds);
        await trx.deleteFrom('alert_notifications').where('event_id', 'in', eventIds).execute();
        await trx.deleteFrom('alert_events').where('alert_id', 'in', alertIds).execute();
        await trx.deleteFrom('alerts').where('monitor_id', '=', id).execute();
        await trx.deleteFrom('alert_monitor_links').where('monitor_id', '=', id).execute();
        await trx.deleteFrom('monitor_channels').where('monitor_id', '=', id).execute();
        await trx.deleteFrom('monitors').where('id', '=', id).execute();
      }),

    /** Metric monitors the evaluator checks: not paused, not failed (reference §2.2). */
    metricMonitorsToCheck: (): Promise<MonitorRow[]> =>
      db
        .selectFrom('monitors')
        .selectAll()
        .where('type', '=', 'metric')
        .where('state', 'in', ['active', 'firing', 'no-data'])
        .orderBy('id')
        .execute(),

    /** Every active error monitor of the project (at most MAX_MONITORS: the cap on a project's monitors). */
    activeErrorMonitors: (trx: AlertingTrx | AlertingDb, projectId: number): Promise<MonitorRow[]> =>
      trx
        .selectFrom('monitors')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('type', '=', 'error')
        .where('state', '=', 'active')
        .orderBy('id')
        .limit(MAX_MONITORS)
        .execute(),
  };
}

export type MonitorsStore = ReturnType<typeof createMonitorsStore>;

export function toMonitor(
  row: MonitorRow,
  extra: { channelIds: number[] | null; counts?: { open: number; closed: number } },
): Monitor {
  return {
    id: String(row.id),
    projectId: row.project_id,
    name: row.name,
    state: row.state as MonitorState,
    stateReason: row.state_reason,
    notifyEveryoneByEmail: Boolean(row.notify_everyone_by_email),
    type: row.type as MonitorType,
    params: JSON.parse(row.params) as Monitor['params'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastCheckAt: row.last_check_at,
    channelIds: extra.channelIds,
    alertOpenCount: extra.counts?.open ?? 0,
    alertClosedCount: extra.counts?.closed ?? 0,
  };
}
