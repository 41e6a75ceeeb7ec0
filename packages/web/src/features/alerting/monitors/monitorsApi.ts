import {
  alertingRoutes,
  MAX_MONITORS,
  type MetricMonitorParams,
  type MonitorState,
  type MonitorType,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryKey, scopeKey } from '../../../lib/api/api';
import { ApiError } from '../../../lib/api/apiClient';

/** Every monitor call of the web app (spec platform §7), one hook per endpoint. */
const A = alertingRoutes;
/** Every monitor query of a project (list, one monitor, preview). */
export const allMonitors = (projectId: number) => scopeKey(A.monitors, { projectId });

export function useMonitors(projectId: number, state: MonitorState | '') {
  const input = { params: { projectId }, query: { limit: MAX_MONITORS, ...(state ? { state } : {}) } };
  return useQuery({
    queryKey: queryKey(A.monitors, input),
    queryFn: ({ signal }) => api(A.monitors, input, { signal }),
  });
}

/** A function that asks for the monitors notifying through a channel, fresh (before the channel's delete). */
export function useFetchChannelMonitors(projectId: number | undefined) {
  const qc = useQueryClient();
  return (channelId: number) => {
    const input = { params: { projectId: projectId ?? 0 }, query: { limit: MAX_MONITORS, channel_id: channelId } };
    return qc.fetchQuery({
      queryKey: queryKey(A.monitors, input),
      queryFn: ({ signal }) => api(A.monitors, input, { signal }),
      staleTime: 0,
    });
  };
}

/**
 * The server answered that this project has no such monitor: an unknown id or no number at all
 * (404), or another project's monitor (403).
 */
export const isMonitorNotFound = (e: unknown) => e instanceof ApiError && (e.status === 404 || e.status === 403);

export function useMonitor(projectId: number, id: string | undefined) {
  const input = { params: { projectId, id: id ?? '' } };
  return useQuery({
    queryKey: queryKey(A.monitor, input),
    queryFn: ({ signal }) => api(A.monitor, input, { signal }),
    enabled: id !== undefined,
    // The forms show the not-found page for a monitor this project lacks; no 'access denied' toast.
    meta: { silent: true },
  });
}

/** Create (no id) or update a monitor of a type; the server's refusal comes back as the error. */
export function useSaveMonitor(projectId: number, type: MonitorType) {
  const qc = useQueryClient();
  return useMutation({
    // The forms build the body of their type; the server validates it with the contract's schema.
    mutationFn: ({ id, body }: { id?: string; body: unknown }) => {
      const contract =
        type === 'metric'
          ? id
            ? A.updateMetricMonitor
            : A.createMetricMonitor
          : id
            ? A.updateErrorMonitor
            : A.createErrorMonitor;
      return api(contract, { params: { projectId, id: id ?? '' }, body } as never);
    },
    meta: { silent: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: allMonitors(projectId) }),
  });
}

export function useSetMonitorState(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, state }: { id: string; state: 'active' | 'paused' }) =>
      api(state === 'active' ? A.activateMonitor : A.pauseMonitor, { params: { projectId, id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: allMonitors(projectId) }),
  });
}

export function useDeleteMonitor(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(A.deleteMonitor, { params: { projectId, id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: allMonitors(projectId) }),
  });
}

/** The evaluator replayed over (the last 7 days of) the range: how often the monitor would have fired. */
export function useMonitorPreview(
  projectId: number,
  params: MetricMonitorParams | undefined,
  range: { time_gte: string; time_lt: string },
) {
  const input = { params: { projectId }, body: { params: params!, ...range } };
  return useQuery({
    queryKey: queryKey(A.previewMetricMonitor, input),
    queryFn: () => api(A.previewMetricMonitor, input),
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
    meta: { silent: true },
    retry: false,
  });
}
