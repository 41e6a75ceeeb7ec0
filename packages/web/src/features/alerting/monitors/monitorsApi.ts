import {
  MetricMonitorPreviewResponse,
  MonitorListResponse,
  MonitorResponse,
  type MetricMonitorParams,
  type MonitorState,
  type MonitorType,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiRequest } from '../../../lib/api/apiClient';

/** Every monitor call of the web app (spec platform §7), one hook per endpoint. */
export const monitorKeys = {
  all: (projectId: number) => ['alerting', projectId, 'monitors'] as const,
  list: (projectId: number, state: string) => ['alerting', projectId, 'monitors', 'list', state] as const,
  one: (projectId: number, id: string) => ['alerting', projectId, 'monitors', id] as const,
};

const base = (projectId: number) => `/api/v1/projects/${projectId}/monitors`;

export function useMonitors(projectId: number, state: MonitorState | '') {
  return useQuery({
    queryKey: monitorKeys.list(projectId, state),
    queryFn: ({ signal }) =>
      apiGet(MonitorListResponse, base(projectId), { limit: 1000, ...(state ? { state } : {}) }, signal),
  });
}

export function useMonitor(projectId: number, id: string | undefined) {
  return useQuery({
    queryKey: monitorKeys.one(projectId, id ?? ''),
    queryFn: ({ signal }) => apiGet(MonitorResponse, `${base(projectId)}/${id}`, undefined, signal),
    enabled: id !== undefined,
  });
}

/** Create (no id) or update a monitor of a type; the server's refusal comes back as the error. */
export function useSaveMonitor(projectId: number, type: MonitorType) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: unknown }) =>
      apiRequest(MonitorResponse, id ? `${base(projectId)}/${id}/${type}` : `${base(projectId)}/${type}`, {
        method: id ? 'PUT' : 'POST',
        body,
      }),
    meta: { silent: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: monitorKeys.all(projectId) }),
  });
}

export function useSetMonitorState(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, state }: { id: string; state: 'active' | 'paused' }) =>
      apiRequest(z.unknown(), `${base(projectId)}/${id}/${state}`, { method: 'PUT', body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: monitorKeys.all(projectId) }),
  });
}

export function useDeleteMonitor(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(z.unknown(), `${base(projectId)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: monitorKeys.all(projectId) }),
  });
}

/** The evaluator replayed over (the last 7 days of) the range: how often the monitor would have fired. */
export function useMonitorPreview(
  projectId: number,
  params: MetricMonitorParams | undefined,
  range: { time_gte: string; time_lt: string },
) {
  return useQuery({
    queryKey: ['alerting', projectId, 'monitors', 'preview', params, range],
    queryFn: () =>
      apiRequest(MetricMonitorPreviewResponse, `${base(projectId)}/metric/preview`, {
        method: 'POST',
        body: { params, ...range },
      }),
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
    meta: { silent: true },
    retry: false,
  });
}
