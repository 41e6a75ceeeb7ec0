import { alertingRoutes, metricsRoutes, type RouteQuery } from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryKey, scopeKey } from '../../../lib/api/api';

/**
 * The alert calls of the web app (spec platform §7): the list with its filter, one alert, its event
 * history, the bulk actions, and the monitor query's timeseries for a metric alert's chart.
 */
type Params = Record<string, string | number | boolean | string[] | undefined>;

const A = alertingRoutes;
/** Every alert query of a project (list, one alert, events). */
const allAlerts = (projectId: number) => scopeKey(A.alerts, { projectId });
/** The list filter's `attrs[key]` entries are extra keys the wire query takes beside its fields. */
const listQuery = (params: Params) => params as RouteQuery<typeof A.alerts>;

/** The list filter as the API takes it: `q`, repeatable `attrs[key]`, sort, page and limit. */
export function alertListParams(f: {
  q: string;
  attrs: Record<string, string[]>;
  sortBy: string;
  sortDesc: boolean;
  page: number;
  limit: number;
}): Params {
  const p: Params = { q: f.q, sort_by: f.sortBy, sort_desc: f.sortDesc, page: f.page, limit: f.limit };
  for (const [key, values] of Object.entries(f.attrs)) if (values.length) p[`attrs[${key}]`] = values;
  return p;
}

export function useAlerts(projectId: number | undefined, params: Params) {
  return useQuery({
    queryKey: queryKey(A.alerts, { params: { projectId: projectId ?? 0 }, query: listQuery(params) }),
    queryFn: ({ signal }) => api(A.alerts, { params: { projectId: projectId! }, query: listQuery(params) }, { signal }),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
  });
}

export function useAlert(projectId: number | undefined, alertId: number | undefined) {
  return useQuery({
    queryKey: queryKey(A.alert, { params: { projectId: projectId ?? 0, id: alertId ?? 0 } }),
    queryFn: ({ signal }) => api(A.alert, { params: { projectId: projectId!, id: alertId! } }, { signal }),
    enabled: projectId !== undefined && alertId !== undefined,
    meta: { silent: true },
  });
}

/** How often an alert's history is asked again while one of its notifications is still pending. */
export const PENDING_POLL_MS = 2000;

/**
 * An alert's history. While a notification is pending (a close just made, a channel retrying) it is
 * asked again every PENDING_POLL_MS, so "pending" turns into "sent" or "failed" without a reload.
 */
export function useAlertEvents(projectId: number, alertId: number) {
  return useQuery({
    queryKey: queryKey(A.alertEvents, { params: { projectId, id: alertId } }),
    queryFn: ({ signal }) => api(A.alertEvents, { params: { projectId, id: alertId } }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.events.some((e) => e.notifications.some((n) => n.state === 'pending'))
        ? PENDING_POLL_MS
        : false,
  });
}

/** Every id matching the filter, 1,000 per request (the API's page limit), for "select all" actions. */
export async function fetchAllAlertIds(projectId: number, params: Params): Promise<{ id: number; state: string }[]> {
  const out: { id: number; state: string }[] = [];
  for (let page = 1; page <= 1000; page++) {
    const r = await api(A.alerts, { params: { projectId }, query: listQuery({ ...params, page, limit: 1000 }) });
    out.push(...r.alerts.map((a) => ({ id: a.id, state: a.state })));
    if (r.alerts.length < 1000 || out.length >= r.count) break;
  }
  return out;
}

export type AlertAction = 'close' | 'open' | 'delete';
const MAX_IDS = 1000;

/** Close / open / delete alerts by id (in requests of at most 1,000 ids), then refresh every alert query. */
export function useAlertAction(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, ids }: { action: AlertAction; ids: number[] }) => {
      let count = 0;
      for (let i = 0; i < ids.length; i += MAX_IDS) {
        const body = { alertIds: ids.slice(i, i + MAX_IDS) };
        const contract = action === 'delete' ? A.deleteAlerts : action === 'close' ? A.closeAlerts : A.openAlerts;
        const r = await api(contract, { params: { projectId }, body });
        count += r.count;
      }
      return count;
    },
    onSettled: () => client.invalidateQueries({ queryKey: allAlerts(projectId) }),
  });
}

/** Closes every open alert matching the list filter (PUT /alerts/close-all with the filter). */
export function useCloseAll(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (params: Params) =>
      (await api(A.closeAllAlerts, { params: { projectId }, query: listQuery(params) })).count,
    onSettled: () => client.invalidateQueries({ queryKey: allAlerts(projectId) }),
  });
}

/** The monitor query of a metric alert over the card's range (the metrics timeseries call, same cache). */
export function useAlertTimeseries(
  projectId: number,
  q: { metric: string[]; alias: string[]; query: string; time_gte: string; time_lt: string },
) {
  return useQuery({
    queryKey: queryKey(metricsRoutes.metricsTimeseries, { params: { projectId }, query: q }),
    queryFn: ({ signal }) => api(metricsRoutes.metricsTimeseries, { params: { projectId }, query: q }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The catalogue entries of a metric alert's metrics (whether they are derived from spans). */
export function useAlertMetrics(projectId: number, names: string[]) {
  const q = { metric: names };
  return useQuery({
    queryKey: queryKey(metricsRoutes.metricsDescribe, { params: { projectId }, query: q }),
    queryFn: ({ signal }) => api(metricsRoutes.metricsDescribe, { params: { projectId }, query: q }, { signal }),
  });
}
