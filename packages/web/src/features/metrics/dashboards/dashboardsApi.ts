import { dashboardsRoutes, type DashboardVariable, type UpdateDashboardTableBody } from '@lantern/shared';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, queryKey, scopeKey } from '../../../lib/api/api';
import { ApiError } from '../../../lib/api/apiClient';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { settledApiRange } from '../../../components/date/useDateRange';
import { dashboardTab } from './dashboardTab';
import { prefetchGridPanels } from './grid/gridApi';
import { withVariables } from './variables/variableState';

/** The longest range a dashboard shows (spec: 90 days). */
export const DASHBOARD_MAX_DAYS = 90;

/**
 * The dashboards calls of the Dashboard page (list, show, create, rename, clone, delete, pin,
 * table settings, YAML). The grid and gauge calls are in grid/gridApi.ts; every change here
 * refreshes the list and the dashboard.
 */
const R = dashboardsRoutes;
const dash = (projectId: number, dashId: string) => ({ params: { projectId, dashId } });
/** The key of the dashboards list. */
export const dashListKey = (projectId: number) => queryKey(R.dashboards, { params: { projectId } });

/**
 * The list and one dashboard, shared by the page's hooks and the prefetch that starts them before
 * the page renders; fresh for a few seconds so the page does not ask again for what just came.
 */
const dashboardsQuery = (pid: number) => ({
  queryKey: dashListKey(pid),
  queryFn: ({ signal }: { signal: AbortSignal }) => api(R.dashboards, { params: { projectId: pid } }, { signal }),
  staleTime: 10_000,
});
const dashboardQuery = (pid: number, dashId: string) => ({
  queryKey: queryKey(R.dashboard, dash(pid, dashId)),
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const answer = await api(R.dashboard, dash(pid, dashId), { signal });
    rememberDashboard(pid, dashId, answer);
    return answer;
  },
  staleTime: 10_000,
  retry: (n: number, err: Error) => !isDashboardMissing(err) && n < 2,
  // The page says what a missing dashboard means (and moves on); the server's 403 text is no news.
  meta: { silent: true },
});

/** No such dashboard in this project: unknown or deleted (404), or another project's (403). */
export const isDashboardMissing = (err: unknown) =>
  err instanceof ApiError && (err.status === 404 || err.status === 403);

export function useDashboards(pid: number) {
  return useQuery(dashboardsQuery(pid));
}

/** `gone`: the dashboard is being (or was) deleted here: not asked again (a 404 on its way out). */
export function useDashboard(pid: number, dashId: string | undefined, gone = false) {
  return useQuery({ ...dashboardQuery(pid, dashId ?? ''), enabled: dashId !== undefined && !gone });
}

type DashboardShow = z.output<typeof R.dashboard.response>;

/**
 * Starts the dashboard list, the dashboard and, when it opens on the Grid tab, every panel's query
 * at once: without it they run one after another as each part of the page renders (layout, list,
 * dashboard, grid, panels). `search`: the address's query (tab, range). The panels of the
 * dashboard as this browser last saw it start at once, beside the dashboard's call; those of the
 * answer follow it (a panel whose query did not change is not asked twice).
 */
export function prefetchDashboard(qc: QueryClient, pid: number, dashId: string, search: URLSearchParams): void {
  void qc.prefetchQuery(dashboardsQuery(pid));
  const range = settledApiRange(search, DASHBOARD_MAX_DAYS);
  const panels = ({ dashboard, grid }: DashboardShow) => {
    if (dashboardTab(search.get('tab'), dashboard, grid.length) === 'grid')
      prefetchGridPanels(qc, pid, grid, dashboard.gridQuery, withVariables(range, dashboard.variables, search));
  };
  const seen = qc.getQueryData<DashboardShow>(dashboardQuery(pid, dashId).queryKey) ?? rememberedDashboard(pid, dashId);
  if (seen) panels(seen);
  qc.fetchQuery(dashboardQuery(pid, dashId)).then(panels, () => undefined); // the page shows the error when it asks
}

/** The last dashboard answer this browser got in a project, kept for the next visit's first calls. */
const rememberedKey = (pid: number) => `dashboard-seen:${pid}`;

function rememberDashboard(pid: number, dashId: string, answer: DashboardShow): void {
  try {
    localStorage.setItem(rememberedKey(pid), JSON.stringify({ dashId, answer }));
  } catch {
    /* storage unavailable or full: the next visit waits for the dashboard */
  }
}

function rememberedDashboard(pid: number, dashId: string): DashboardShow | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(rememberedKey(pid)) ?? 'null') as {
      dashId?: unknown;
      answer?: unknown;
    };
    if (kept?.dashId !== dashId) return undefined;
    const answer = R.dashboard.response.safeParse(kept.answer);
    return answer.success ? answer.data : undefined;
  } catch {
    return undefined; // unreadable: as if nothing was kept
  }
}

/** prefetchDashboard from the Metrics layout, once per dashboard opened in the app. */
export function usePrefetchDashboard(pid: number | undefined, dashId: string | undefined) {
  const qc = useQueryClient();
  const [search] = useSearchParams();
  useEffect(() => {
    if (pid !== undefined && dashId !== undefined) prefetchDashboard(qc, pid, dashId, search);
    // Once per dashboard opened: later changes of the address are the page's own business.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [qc, pid, dashId]);
}

/** Every dashboard query of the project: the list, and each dashboard with what hangs under it. */
const allDashboards = (pid: number) => scopeKey(R.dashboards, { projectId: pid });

/** Every dashboards mutation: refresh the list (and the dashboard) when it is done. */
/** `silent`: the dialog that calls it shows the error itself (no toast as well). */
function useDashMutation<V, R>(pid: number, fn: (v: V) => Promise<R>, silent = false) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: allDashboards(pid) }),
    meta: { silent },
  });
}

export const useCreateDashboard = (pid: number) =>
  useDashMutation(pid, (name: string) => api(R.createDashboard, { params: { projectId: pid }, body: { name } }));
export const useCloneDashboard = (pid: number) =>
  useDashMutation(pid, (dashId: string) => api(R.cloneDashboard, dash(pid, dashId)));
export const useDeleteDashboard = (pid: number) =>
  useDashMutation(pid, (dashId: string) => api(R.deleteDashboard, dash(pid, dashId)));
export const useRenameDashboard = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; name: string; tags?: string[] }) =>
    api(R.updateDashboard, { ...dash(pid, v.dashId), body: { name: v.name, tags: v.tags } }),
  );
export const useCreateFromTemplate = (pid: number) =>
  useDashMutation(
    pid,
    (templateId: string) => api(R.createDashboardFromTemplate, { params: { projectId: pid, templateId } }),
    true,
  );

/** The built-in templates (the gallery behind New dashboard); they change only with the server. */
export function useDashboardTemplates(pid: number, enabled = true) {
  const input = { params: { projectId: pid } };
  return useQuery({
    queryKey: queryKey(R.dashboardTemplates, input),
    queryFn: ({ signal }) => api(R.dashboardTemplates, input, { signal }),
    staleTime: Infinity,
    enabled,
  });
}
export const useSaveVariables = (pid: number) =>
  useDashMutation(
    pid,
    (v: { dashId: string; variables: DashboardVariable[] }) =>
      api(R.updateDashboard, { ...dash(pid, v.dashId), body: { variables: v.variables } }),
    true,
  );
export const usePinDashboard = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; pinned: boolean }) =>
    api(v.pinned ? R.pinDashboard : R.unpinDashboard, dash(pid, v.dashId)),
  );
export const useUpdateDashboardTable = (pid: number) =>
  useDashMutation(pid, (v: { dashId: string; body: z.input<typeof UpdateDashboardTableBody> }) =>
    api(R.updateDashboardTable, { ...dash(pid, v.dashId), body: v.body }),
  );

/** The dashboard as YAML (its export format). */
export function useDashboardYaml(pid: number, dashId: string) {
  return useQuery({
    queryKey: queryKey(R.dashboardYaml, dash(pid, dashId)),
    queryFn: ({ signal }) => api(R.dashboardYaml, dash(pid, dashId), { signal }),
  });
}

/** Replaces the dashboard from YAML; a refusal carries the server's message (with the key or line at fault). */
export function useSaveDashboardYaml(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (yaml: string) => api(R.importDashboardYaml, { ...dash(pid, dashId), text: yaml }),
    meta: { silent: true },
    // The list, and the dashboard with everything under it (grid, gauges, YAML).
    onSuccess: () => qc.invalidateQueries({ queryKey: allDashboards(pid) }),
  });
}

/** A new dashboard from a YAML file's text; a file that is not a dashboard is refused with the server's message. */
export function useImportDashboardYaml(pid: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (yaml: string) => api(R.createDashboardFromYaml, { params: { projectId: pid }, text: yaml }),
    meta: { silent: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: allDashboards(pid) }),
  });
}
