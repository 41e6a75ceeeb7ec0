import { AlertIdsInput, AlertListQuery, type AlertListResponse, type AlertState, type ErrorAlertParams } from '@lantern/shared';
import { AppError } from '../http/appError';
import { parseInput } from '../http/parseInput';
import { emitAlertEvent, type EventDeps } from './alertEvents';
import { listAlerts, parseAlertQuery } from './alertList';
import { toAlert, type AlertRow, type AlertsStore } from './alerts.store';
import type { AlertingDb } from './db';
import type { ErrorSpans } from './errorSpans';

/** Alert reads and the user's actions on alerts: close, reopen, close all, delete. */
export function createAlertsService(deps: EventDeps & { db: AlertingDb; alerts: AlertsStore; errorSpans: ErrorSpans; now: () => Date }) {
  const { alerts } = deps;

  /** `attrs[key]=v` query parameters (repeatable) -> {key: [v...]}. */
  function listQuery(raw: Record<string, unknown>) {
    const attrs: Record<string, string[]> = {};
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      const m = /^attrs\[(.+)\]$/.exec(k);
      if (m) attrs[m[1]] = (Array.isArray(v) ? v : [v]).map(String);
      else rest[k] = v;
    }
    // With no filter at all the list shows open alerts (spec §2.5).
    if (!Object.keys(attrs).length && !rest.q) attrs['alert.state'] = ['open'];
    return parseInput(AlertListQuery, { ...rest, attrs });
  }

  async function filtered(projectId: number, raw: Record<string, unknown>) {
    const q = listQuery(raw);
    const rows = await alerts.scan(projectId, { monitorId: parseAlertQuery(q.q).monitorId, from: q.time_gte && new Date(q.time_gte).toISOString(), to: q.time_lt && new Date(q.time_lt).toISOString() });
    return { q, all: rows.map(toAlert) };
  }

  /** Attributes of the error's current span for monitor matchers; the alert's own when it is gone. */
  async function spanAttrs(a: AlertRow): Promise<Record<string, string>> {
    if (a.type !== 'error') return {};
    const p = JSON.parse(a.params) as ErrorAlertParams;
    return (await deps.errorSpans.spanAttrs(a.project_id, p.traceId, p.spanId).catch(() => null)) ?? (JSON.parse(a.attrs) as Record<string, string>);
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
        await emitAlertEvent(trx, deps, { alert: { ...a, ...set }, name: 'state-changed', params: { state, oldState: a.state }, userId, createdAt: now, spanAttrs: attrs }, now);
        return true;
      });
      if (done) changed++;
    }
    return changed;
  }

  async function ownIds(projectId: number, body: unknown): Promise<AlertRow[]> {
    const { alertIds } = parseInput(AlertIdsInput, body);
    const rows = await alerts.byIds(projectId, alertIds);
    if (rows.length !== new Set(alertIds).size) throw new AppError('forbidden', 'forbidden', "you don't have enough permissions to update this alert");
    return rows;
  }

  return {
    async list(projectId: number, raw: Record<string, unknown>): Promise<AlertListResponse> {
      const { q, all } = await filtered(projectId, raw);
      return listAlerts(all, q);
    },
    async show(projectId: number, rawId: string) {
      const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : NaN;
      const row = Number.isFinite(id) ? await alerts.get(id) : undefined;
      if (!row) throw new AppError('not_found', 'alert_not_found', `Alert ${JSON.stringify(rawId)} not found.`);
      if (row.project_id !== projectId) throw new AppError('forbidden', 'forbidden', 'access denied');
      return { alert: toAlert(row) };
    },
    close: async (projectId: number, body: unknown, userId: number) => ({ count: await setState(await ownIds(projectId, body), 'closed', userId) }),
    open: async (projectId: number, body: unknown, userId: number) => ({ count: await setState(await ownIds(projectId, body), 'open', userId) }),
    /** Closes every open alert that matches the list filter in the query string. */
    async closeAll(projectId: number, raw: Record<string, unknown>, userId: number) {
      const { q, all } = await filtered(projectId, raw);
      const open = listAlerts(all, { ...q, page: 1, limit: all.length || 1 }).alerts.filter((a) => a.state === 'open');
      return { count: await setState(await alerts.byIds(projectId, open.map((a) => a.id)), 'closed', userId) };
    },
    async remove(projectId: number, body: unknown) {
      const { alertIds } = parseInput(AlertIdsInput, body);
      return { count: await alerts.delete(projectId, alertIds) };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
