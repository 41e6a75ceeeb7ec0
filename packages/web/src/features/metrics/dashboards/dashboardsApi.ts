import { Dashboard, type UpdateDashboardTableBody } from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiGet, apiPost, apiRequest } from '../../../lib/api/apiClient';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { settledApiRange } from '../../../components/date/useDateRange';
import { dashboardTab } from './dashboardTab';
import { dashShowKey, GridColumnSchema, prefetchGridPanels } from './grid/gridApi';

/** The longest range a dashboard shows (spec: 90 days). */
export const DASHBOARD_MAX_DAYS = 90;

/**
 * The dashboards calls of the Dashboard page (list, show, create, rename, clone, delete, pin,
 * table settings, YAML). The grid and gauge calls are in grid/gridApi.ts; every change here
 * refreshes the list and the dashboard.
 */
export const dashboardKeys = {
  list: (pid: number) => ['metrics', pid, 'dashboards'] as const,
  show: dashShowKey,
  yaml: (pid: number, dashId: string) => ['metrics', pid, 'dashboards', dashId, 'yaml'] as const,
};

const base = (pid: number) => `/api/v1/metrics/${pid}/dashboards`;
const DashboardsResponse = z.object({ dashboards: z.array(Dashboard) });
const OneDashboard = z.object({ dashboard: Dashboard });
export const DashboardShow = z.object({ dashboard: Dashboard, grid: z.array(GridColumnSchema), yamlUrl: z.string() });
export type DashboardShow = z.infer<typeof DashboardShow>;

/**
 * The list and one dashboard, shared by the page's hooks and the prefetch that starts them before
 * the page renders; fresh for a few seconds so the page does not ask again for what just came.
 */
const dashboardsQuery = (pid: number) => ({
  queryKey: dashboardKeys.list(pid),
  queryFn: ({ signal }: { signal: AbortSignal }) => apiGet(DashboardsResponse, base(pid), undefined, signal),
  staleTime: 10_000,
});
const dashboardQuery = (pid: number, dashId: string) => ({
  queryKey: dashboardKeys.show(pid, dashId),
  queryFn: ({ signal }: { signal: AbortSignal }) => apiGet(DashboardShow, `${base(pid)}/${dashId}`, undefined, signal),
  staleTime: 10_000,
  retry: (n: number, err: Error) => !(err instanceof ApiError && err.status === 404) && n < 2,
});

export function useDashboards(pid: number) {
  return useQuery(dashboardsQuery(pid));
}

export function useDashboard(pid: number, dashId: string | undefined) {
  return useQuery({ ...dashboardQuery(pid, dashId ?? ''), enabled: dashId !== undefined });
}

/**
 * Starts the dashboard list, the dashboard and, when it opens on the Grid tab, every panel's query
 * at once, from the Metrics layout: without it they run one after another as each part of the page
 * renders (layout, list, dashboard, grid, panels).
 */
export function usePrefetchDashboard(pid: number | undefined, dashId: string | undefined) {
  const qc = useQueryClient();
  const [search] = useSearchParams();
  const tabParam = search.get('tab');
  useEffect(() => {
    if (pid === undefined || dashId === undefined) return;
    void qc.prefetchQuery(dashboardsQuery(pid));
    qc.fetchQuery(dashboardQuery(pid, dashId)).then(
      ({ dashboard, grid }) => {
        if (dashboardTab(tabParam, dashboard, grid.length) !== 'grid') return;
        prefetchGridPanels(qc, pid, grid, dashboard.gridQuery, settledApiRange(search, DASHBOARD_MAX_DAYS));
      },
      () => undefined, // the page shows the error when it asks
    );
    // Once per dashboard opened: later changes of the address are the page's own business.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [qc, pid, dashId]);
}

/** Every dashboards mutation: refresh the list (and the dashboard) when it is done. */
function useDashMutation<V, R>(pid: number, fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: dashboardKeys.list(pid) }) });
}

export const useCreateDashboard = (pid: number) =>
  useDashMutation(pid, (name: string) => apiPost(OneDashboard, base(pid), { name }));
export const useCloneDashboard = (pid: number) =>
  useDashMutation(pid, (dashId: string) => apiPost(OneDashboard, `${base(pid)}/${dashId}`));
export const useDeleteDashboard = (pid: number) =>
  useDashMutation(pid, (dashId: string) => apiRequest(OneDashboard, `${base(pid)}/${dashId}`, { method: 'DELETE' }));
export const useRenameDashboard = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; name: string }) =>
    apiRequest(OneDashboard, `${base(pid)}/${v.dashId}`, { method: 'PUT', body: { name: v.name } }),
  );
export const usePinDashboard = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; pinned: boolean }) =>
    apiRequest(z.object({}), `${base(pid)}/${v.dashId}/${v.pinned ? 'pinned' : 'unpinned'}`, {
      method: 'PUT',
      body: {},
    }),
  );
export const useUpdateDashboardTable = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; body: z.input<typeof UpdateDashboardTableBody> }) =>
    apiRequest(OneDashboard, `${base(pid)}/${v.dashId}/table`, { method: 'PUT', body: v.body }),
  );

/** The dashboard as YAML (its export format). */
export function useDashboardYaml(pid: number, dashId: string) {
  return useQuery({
    queryKey: dashboardKeys.yaml(pid, dashId),
    queryFn: async ({ signal }) => {
      const res = await fetch(`${base(pid)}/${dashId}/yaml`, { credentials: 'include', signal });
      if (!res.ok) throw new ApiError(res.status, 'http_error', `${res.status} ${res.statusText}`);
      return res.text();
    },
  });
}

/** Replaces the dashboard from YAML; a refusal carries the server's message (with the key or line at fault). */
export function useSaveDashboardYaml(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (yaml: string) => {
      const res = await fetch(`${base(pid)}/${dashId}/yaml`, {
        method: 'PUT',
        credentials: 'include',
        headers: { 'content-type': 'text/yaml' },
        body: yaml,
      });
      const data = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined;
      if (!res.ok)
        throw new ApiError(
          res.status,
          data?.code ?? 'http_error',
          data?.message ?? `${res.status} ${res.statusText}`,
          data,
        );
      return OneDashboard.parse(data);
    },
    meta: { silent: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['metrics', pid, 'dashboards'] }),
  });
}

/** A new dashboard from a YAML file's text; a file that is not a dashboard is refused with the server's message. */
export function useImportDashboardYaml(pid: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (yaml: string) => {
      const res = await fetch(`${base(pid)}/yaml`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'text/yaml' },
        body: yaml,
      });
      const data = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined;
      if (!res.ok)
        throw new ApiError(
          res.status,
          data?.code ?? 'http_error',
          data?.message ?? `${res.status} ${res.statusText}`,
          data,
        );
      return OneDashboard.parse(data);
    },
    meta: { silent: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: dashboardKeys.list(pid) }),
  });
}
