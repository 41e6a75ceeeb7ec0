import {
  AlertIdsInput,
  AlertListQuery,
  type AlertListResponse,
  type AlertState,
  type ErrorAlertParams,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { dbId, parseInput } from '../http/parseInput';
import { emitAlertEvent, type EventDeps } from './alertEvents';
import { alertHistory } from './alertHistory';
import { createAlertList, toFilter } from './alertList';
import { toAlert, type AlertRow, type AlertsStore } from './alerts.store';
import type { AlertingDb } from './db';
import type { ErrorSpans } from './errorSpans';

/** Alert reads and the user's actions on alerts: close, reopen, close all, delete. */
export function createAlertsService(
  deps: EventDeps & { db: AlertingDb; alerts: AlertsStore; errorSpans: ErrorSpans; now: () => Date },
) {
  const { alerts } = deps;
  const alertList = createAlertList(deps.db);

  /** `attrs[key]=v` query parameters (repeatable) -> {key: [v...]}. */
  function listQuery(raw: Record<string, unknown>) {
    const attrs: Record<string, string[]> = {};
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      const m = /^attrs\[(.+)\]$/.exec(k);
      if (m) attrs[m[1]] = (Array.isArray(v) ? v : [v]).map(String);
      else rest[k] = v;
    }
    // With no filter parameter at all the list shows open alerts (spec §2.5); a `q` (even empty)
    // or any attrs[...] makes the filter explicit, so the UI can list every state.
    if (!Object.keys(attrs).length && rest.q === undefined) attrs['alert.state'] = ['open'];
    return parseInput(AlertListQuery, { ...rest, attrs });
  }

  /** Attributes of the error's current span for monitor matchers; the alert's own when it is gone. */
  async function spanAttrs(a: AlertRow): Promise<Record<string, string>> {
    if (a.type !== 'error') return {};
    const p = JSON.parse(a.params) as ErrorAlertParams;
    return (
      (await deps.errorSpans.spanAttrs(a.project_id, p.traceId, p.spanId).catch(() => null)) ??
      (JSON.parse(a.attrs) as Record<string, string>)
    );
  }

  async function setState(rows: AlertRow[], state: AlertState, userId: number): Promise<number> {
    let changed = 0;
    for (const a of rows) {
      if (a.state === state) continue;
      const attrs = await spanAttrs(a);
      const now = deps.now();
      const done = await deps.db.transaction().execute(async (trx) => {
        const set = { state, updated_at: now.toISOString() };
        if (!(await alerts.casUpdate(trx, a.id, a.state, set))) return false;
        await emitAlertEvent(
          trx,
          deps,
          {
            alert: { ...a, ...set },
            name: 'state-changed',
            params: { state, oldState: a.state },
            userId,
            createdAt: now,
            spanAttrs: attrs,
          },
          now,
        );
        return true;
      });
      if (done) changed++;
    }
    return changed;
  }

  async function own(projectId: number, rawId: string): Promise<AlertRow> {
    const id = dbId(rawId);
    const row = id === undefined ? undefined : await alerts.get(id);
    if (!row) throw new AppError('not_found', 'alert_not_found', `Alert ${JSON.stringify(rawId)} not found.`);
    if (row.project_id !== projectId) throw new AppError('forbidden', 'forbidden', 'access denied');
    return row;
  }

  async function ownIds(projectId: number, body: unknown): Promise<AlertRow[]> {
    const { alertIds } = parseInput(AlertIdsInput, body);
    const rows = await alerts.byIds(projectId, alertIds);
    if (rows.length !== new Set(alertIds).size)
      throw new AppError('forbidden', 'forbidden', "you don't have enough permissions to update this alert");
    return rows;
  }

  return {
    async list(projectId: number, raw: Record<string, unknown>): Promise<AlertListResponse> {
      const q = listQuery(raw);
      return alertList.list(toFilter(projectId, q), q);
    },
    async show(projectId: number, rawId: string) {
      return { alert: toAlert(await own(projectId, rawId)) };
    },
    /** The alert's events with the notifications decided for each (the card's history). */
    async events(projectId: number, rawId: string) {
      const row = await own(projectId, rawId);
      return { events: await alertHistory(deps.db, row.id) };
    },
    close: async (projectId: number, body: unknown, userId: number) => ({
      count: await setState(await ownIds(projectId, body), 'closed', userId),
    }),
    open: async (projectId: number, body: unknown, userId: number) => ({
      count: await setState(await ownIds(projectId, body), 'open', userId),
    }),
    /** Closes every open alert that matches the list filter in the query string. */
    async closeAll(projectId: number, raw: Record<string, unknown>, userId: number) {
      const f = toFilter(projectId, listQuery(raw));
      const ids = await alertList.ids({
        ...f,
        filters: [...f.filters.filter((x) => x.key !== 'alert.state'), { key: 'alert.state', values: ['open'] }],
      });
      let count = 0;
      // In slices, so a filter over many thousands of alerts never builds one huge IN list.
      for (let i = 0; i < ids.length; i += 500)
        count += await setState(await alerts.byIds(projectId, ids.slice(i, i + 500)), 'closed', userId);
      return { count };
    },
    async remove(projectId: number, body: unknown) {
      const { alertIds } = parseInput(AlertIdsInput, body);
      return { count: await alerts.delete(projectId, alertIds) };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
