import {
  AlertBulkResponse,
  AlertEventsResponse,
  AlertListResponse,
  AlertResponse,
  MetricTimeseriesResponse,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from '../../../lib/api/apiClient';

/**
 * The alert calls of the web app (spec platform §7): the list with its filter, one alert, its event
 * history, the bulk actions, and the monitor query's timeseries for a metric alert's chart.
 */
type Params = Record<string, string | number | boolean | string[] | undefined>;

const base = (projectId: number) => `/api/v1/projects/${projectId}/alerts`;

export const alertKeys = {
  all: (projectId: number | undefined) => ['alerts', projectId] as const,
  list: (projectId: number | undefined, params: Params) => ['alerts', projectId, 'list', params] as const,
  one: (projectId: number | undefined, id: number) => ['alerts', projectId, 'one', id] as const,
  events: (projectId: number | undefined, id: number) => ['alerts', projectId, 'events', id] as const,
};

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
    queryKey: alertKeys.list(projectId, params),
    queryFn: ({ signal }) => apiGet(AlertListResponse, base(projectId!), params, signal),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
  });
}

export function useAlert(projectId: number | undefined, alertId: number | undefined) {
  return useQuery({
    queryKey: alertKeys.one(projectId, alertId ?? 0),
    queryFn: ({ signal }) => apiGet(AlertResponse, `${base(projectId!)}/${alertId}`, undefined, signal),
    enabled: projectId !== undefined && alertId !== undefined,
    meta: { silent: true },
  });
}

export function useAlertEvents(projectId: number, alertId: number) {
  return useQuery({
    queryKey: alertKeys.events(projectId, alertId),
    queryFn: ({ signal }) => apiGet(AlertEventsResponse, `${base(projectId)}/${alertId}/events`, undefined, signal),
  });
}

/** Every id matching the filter, 1,000 per request (the API's page limit), for "select all" actions. */
export async function fetchAllAlertIds(projectId: number, params: Params): Promise<{ id: number; state: string }[]> {
  const out: { id: number; state: string }[] = [];
  for (let page = 1; page <= 1000; page++) {
    const r = await apiGet(AlertListResponse, base(projectId), { ...params, page, limit: 1000 });
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
        const r =
          action === 'delete'
            ? await apiRequest(AlertBulkResponse, base(projectId), { method: 'DELETE', body })
            : await apiRequest(AlertBulkResponse, `${base(projectId)}/${action === 'close' ? 'closed' : 'open'}`, {
                method: 'PUT',
                body,
              });
        count += r.count;
      }
      return count;
    },
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all(projectId) }),
  });
}

/** Closes every open alert matching the list filter (PUT /alerts/close-all with the filter). */
export function useCloseAll(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (params: Params) =>
      (await apiRequest(AlertBulkResponse, `${base(projectId)}/close-all`, { method: 'PUT', query: params })).count,
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all(projectId) }),
  });
}

/** The monitor query of a metric alert over the card's range (GET /api/v1/metrics/{projectId}/timeseries). */
export function useAlertTimeseries(
  projectId: number,
  q: { metric: string[]; alias: string[]; query: string; time_gte: string; time_lt: string },
) {
  return useQuery({
    queryKey: ['alerts', projectId, 'timeseries', q],
    queryFn: ({ signal }) => apiGet(MetricTimeseriesResponse, `/api/v1/metrics/${projectId}/timeseries`, q, signal),
    placeholderData: keepPreviousData,
  });
}
