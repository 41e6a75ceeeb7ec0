import { MAX_CHANNELS, type ChannelState, type ChannelType, type NotifChannel } from '@lantern/shared';
import type { Selectable } from 'kysely';
import { projectHasRoom } from '../storage/metadata';
import type { AlertingTables } from './alerting.migration';
import type { AlertingDb, AlertingTrx } from './db';

/** A row as read from the table. */
export type ChannelRow = Selectable<AlertingTables['notif_channels']>;

/** slack: {webhookUrl}; webhook / alertmanager: {url, payload}. */
export interface ChannelParams {
  webhookUrl?: string;
  url?: string;
  payload?: unknown;
}

export interface OutboxStats {
  pending: number;
  nextAttemptAt: string | null;
  failed: number;
}
export const NO_OUTBOX: OutboxStats = { pending: 0, nextAttemptAt: null, failed: 0 };

export function createChannelsStore(db: AlertingDb) {
  return {
    get: (id: number): Promise<ChannelRow | undefined> =>
      db.selectFrom('notif_channels').selectAll().where('id', '=', id).executeTakeFirst(),

    list: (projectId: number): Promise<ChannelRow[]> =>
      db
        .selectFrom('notif_channels')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('id')
        .limit(MAX_CHANNELS)
        .execute(),

    /** Which of `ids` are channels of the project. */
    async existing(projectId: number, ids: number[]): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const rows = await db
        .selectFrom('notif_channels')
        .select('id')
        .where('project_id', '=', projectId)
        .where('id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /**
     * What the outbox holds for each channel: notifications still to send (and when the next try
     * is due) and those given up on. Both filters lead with `state`, so the due index serves them.
     */
    async outboxStats(ids: number[]): Promise<Map<number, OutboxStats>> {
      const stats = new Map<number, OutboxStats>();
      if (!ids.length) return stats;
      const rows = await db
        .selectFrom('alert_notifications')
        .where('channel_id', 'in', ids)
        .where('state', 'in', ['pending', 'failed'])
        .select([
          'channel_id',
          'state',
          (eb) => eb.fn.countAll<number>().as('n'),
          (eb) => eb.fn.min('next_attempt_at').as('next'),
        ])
        .groupBy(['channel_id', 'state'])
        .execute();
      for (const r of rows) {
        const s = stats.get(r.channel_id!) ?? { ...NO_OUTBOX };
        if (r.state === 'pending') {
          s.pending = Number(r.n);
          s.nextAttemptAt = r.next;
        } else s.failed = Number(r.n);
        stats.set(r.channel_id!, s);
      }
      return stats;
    },

    /**
     * A new channel, unless the project has MAX_CHANNELS already ('full', nothing written). The count and
     * the insert run in one transaction under the project's lock, so concurrent creates count one
     * after the other.
     */
    create: (
      projectId: number,
      v: { name: string; type: ChannelType; params: ChannelParams },
      now: Date,
    ): Promise<number | 'full'> =>
      db.transaction().execute(async (trx) => {
        if (!(await projectHasRoom(trx, 'notif_channels', projectId, MAX_CHANNELS))) return 'full';
        const { id } = await trx
          .insertInto('notif_channels')
          .values({
            project_id: projectId,
            name: v.name,
            type: v.type,
            state: 'delivering',
            params: JSON.stringify(v.params),
            last_error: '',
            consecutive_failures: 0,
            created_at: now.toISOString(),
            last_delivered_at: null,
            last_error_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return id;
      }),

    async update(id: number, v: { name: string; type: ChannelType; params: ChannelParams }): Promise<void> {
      await db
        .updateTable('notif_channels')
        .set({ name: v.name, type: v.type, params: JSON.stringify(v.params) })
        .where('id', '=', id)
        .execute();
    },

    /** Pause / unpause. Unpausing also re-enables a disabled channel and clears its failure count. */
    async setState(id: number, state: ChannelState): Promise<void> {
      await db
        .updateTable('notif_channels')
        .set(state === 'delivering' ? { state, consecutive_failures: 0 } : { state })
        .where('id', '=', id)
        .execute();
    },

    delete: (id: number): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('monitor_channels').where('channel_id', '=', id).execute();
        await trx
          .deleteFrom('alert_notifications')
          .where('channel_id', '=', id)
          .where('state', '=', 'pending')
          .execute();
        await trx.deleteFrom('notif_channels').where('id', '=', id).execute();
      }),

    /** Delivering channels linked to any of the monitors (max 100): the fan-out targets. */
    async deliveringForMonitors(trx: AlertingTrx, monitorIds: number[]): Promise<ChannelRow[]> {
      if (!monitorIds.length) return [];
      return trx
        .selectFrom('notif_channels')
        .selectAll()
        .where('state', '=', 'delivering')
        .where(
          'id',
          'in',
          trx.selectFrom('monitor_channels').select('channel_id').where('monitor_id', 'in', monitorIds),
        )
        .orderBy('id')
        .limit(MAX_CHANNELS)
        .execute();
    },

    async recordSuccess(id: number, now: Date): Promise<void> {
      await db
        .updateTable('notif_channels')
        .set({ last_delivered_at: now.toISOString(), consecutive_failures: 0 })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Records a test notification's outcome as the channel's latest delivery news. A failed test
     * never counts towards disabling the channel: the user is trying things out.
     */
    async recordTest(id: number, ok: boolean, error: string, now: Date): Promise<void> {
      await db
        .updateTable('notif_channels')
        .set(
          ok
            ? { last_delivered_at: now.toISOString() }
            : { last_error: error.slice(0, 1000), last_error_at: now.toISOString() },
        )
        .where('id', '=', id)
        .execute();
    },

    /** Records a failure; `disable` moves a still-delivering channel to disabled. */
    async recordFailure(id: number, error: string, now: Date, disable: boolean): Promise<void> {
      await db
        .updateTable('notif_channels')
        .set((eb) => ({
          last_error: error.slice(0, 1000),
          last_error_at: now.toISOString(),
          consecutive_failures: eb('consecutive_failures', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
      if (disable)
        await db
          .updateTable('notif_channels')
          .set({ state: 'disabled' })
          .where('id', '=', id)
          .where('state', '=', 'delivering')
          .execute();
    },
  };
}

export type ChannelsStore = ReturnType<typeof createChannelsStore>;

export function toChannel(row: ChannelRow, outbox: OutboxStats = NO_OUTBOX): NotifChannel {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    type: row.type as ChannelType,
    state: row.state as ChannelState,
    params: JSON.parse(row.params) as Record<string, unknown>,
    delivery: {
      lastDeliveredAt: row.last_delivered_at,
      lastError: row.last_error,
      lastErrorAt: row.last_error_at,
      consecutiveFailures: row.consecutive_failures,
      ...outbox,
    },
  };
}
