import {
  dashboardsRoutes,
  GridColumnInput,
  metricsRoutes,
  type GaugeInput,
  type Gauge,
  type GridColumn,
  type MetricAlias,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, queryKey, scopeKey, type ApiInput } from '../../../../lib/api/api';

/**
 * The data calls of the dashboard grid and gauges: the metric queries each panel runs
 * (timeseries / table / heatmap / gauge) and the grid, gauge and grid-query mutations. Every
 * mutation invalidates the dashboard and what hangs under it (`scopeKey` of the dashboard).
 */
/** The dashboard's range, with its variables' values (`var`, issue 41) when it has any. */
export type Range = { time_gte: string; time_lt: string; var?: string[] };

const D = dashboardsRoutes;
const dash = (projectId: number, dashId: string) => ({ params: { projectId, dashId } });
const dashListKey = (projectId: number) => queryKey(D.dashboards, { params: { projectId } });
export const gaugesKey = (pid: number, dashId: string, kind: 'grid' | 'table') =>
  queryKey(D.gauges, { ...dash(pid, dashId), query: { dash_kind: kind } });

/** The query a panel runs: its own, then the dashboard's, then a row filter (all joined with `|`). */
export function joinQuery(...parts: (string | undefined)[]): string {
  return parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(' | ');
}

type MetricParams = { metrics: MetricAlias[]; query: string };
const metricQuery = (p: MetricParams, range: Range) => ({
  metric: p.metrics.map((m) => m.name),
  alias: p.metrics.map((m) => m.alias),
  query: p.query,
  ...range,
});

type MetricCall =
  | typeof metricsRoutes.metricsTimeseries
  | typeof metricsRoutes.metricsTable
  | typeof metricsRoutes.metricsGauge
  | typeof metricsRoutes.metricsHeatmap;
type MetricCallQuery = Range & { metric: string[]; alias: string[]; query: string };

/** The query of one metrics call; panels and the dashboard's prefetch share it (same key). */
function metricCallOptions<C extends MetricCall>(contract: C, pid: number, query: MetricCallQuery) {
  // The four contracts take the same params and query; generic code cannot see that through ApiInput.
  const input = { params: { projectId: pid }, query } as unknown as ApiInput<C>;
  return {
    queryKey: queryKey(contract, input),
    queryFn: ({ signal }: { signal: AbortSignal }) => api(contract, input, { signal }),
    // Fresh for a while, so a panel mounting after the prefetch answered does not ask again;
    // Reload and range changes still refetch.
    staleTime: 30_000,
  };
}

function useMetricCall<C extends MetricCall>(contract: C, pid: number, query: MetricCallQuery | undefined) {
  return useQuery({
    ...metricCallOptions(contract, pid, query ?? { time_gte: '', time_lt: '', metric: [], alias: [], query: '' }),
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
    // A panel shows its own error (spec §8): no toast, no retries of a bad query.
    meta: { silent: true },
    retry: false,
  });
}

const heatmapParams = (p: { metric: string; query: string }, range: Range): MetricCallQuery => ({
  metric: [p.metric],
  alias: [],
  query: p.query,
  ...range,
});

const M = metricsRoutes;

export const useTimeseries = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(M.metricsTimeseries, pid, p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useMetricTable = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(M.metricsTable, pid, p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useGaugeValues = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(M.metricsGauge, pid, p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useHeatmap = (pid: number, p: { metric: string; query: string } | undefined, range: Range) =>
  useMetricCall(M.metricsHeatmap, pid, p && p.metric ? heatmapParams(p, range) : undefined);

/**
 * Starts every grid panel's query as soon as the dashboard is known, with the keys the panels use,
 * so the calls do not wait for the page to lay the grid out (a panel that mounts later finds its
 * answer on the way). `query` joins each panel's own query with the dashboard's.
 */
export function prefetchGridPanels(
  qc: QueryClient,
  pid: number,
  grid: readonly GridColumn[],
  gridQuery: string,
  range: Range,
): void {
  const prefetch = (contract: MetricCall, query: MetricCallQuery) =>
    void qc.prefetchQuery({ ...metricCallOptions(contract, pid, query), retry: false, meta: { silent: true } });
  for (const c of grid) {
    if (c.type === 'promql') continue; // asked by its panel: the range is aligned to its step there
    const query = joinQuery(c.params.query, gridQuery);
    if (c.type === 'heatmap') {
      if (c.params.metric) prefetch(M.metricsHeatmap, heatmapParams({ metric: c.params.metric, query }, range));
    } else if (c.params.metrics.length) {
      const params = metricQuery({ metrics: c.params.metrics, query }, range);
      prefetch(c.type === 'chart' ? M.metricsTimeseries : M.metricsTable, params);
    }
  }
}

export function useDashGauges(pid: number, dashId: string, kind: 'grid' | 'table') {
  return useQuery({
    queryKey: gaugesKey(pid, dashId, kind),
    queryFn: ({ signal }) => api(D.gauges, { ...dash(pid, dashId), query: { dash_kind: kind } }, { signal }),
  });
}

/** Invalidates the dashboard (grid), its gauges and the list after a change. */
function useDashInvalidate(pid: number, dashId: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: scopeKey(D.dashboard, { projectId: pid, dashId }) }),
      qc.invalidateQueries({ queryKey: dashListKey(pid), exact: true }),
    ]);
}

export function useSaveColumn(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: GridColumnInput }) =>
      id
        ? api(D.updateGridColumn, { params: { projectId: pid, dashId, colId: id }, body: input })
        : api(D.addGridColumn, { ...dash(pid, dashId), body: input }),
    onSuccess: invalidate,
    meta: { silent: true },
  });
}

/**
 * A chart of `metrics` and `query` added to a dashboard, an existing one (`dashId`) or a new one
 * (`newName`): Metrics explore's 'Add to dashboard' (issue 41). Answers the dashboard's id.
 */
export function useAddChartToDashboard(pid: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: {
      dashId?: string;
      newName?: string;
      name: string;
      metrics: MetricAlias[];
      query: string;
      columnMap: Record<string, { unit: string; color: string }>;
    }) => {
      const dashId =
        v.dashId ??
        (await api(D.createDashboard, { params: { projectId: pid }, body: { name: v.newName ?? '' } })).dashboard.id;
      // The contract's defaults: a line chart, sized and placed by the server.
      const input = GridColumnInput.parse({
        type: 'chart',
        name: v.name,
        params: { metrics: v.metrics, query: v.query, columnMap: v.columnMap },
      });
      await api(D.addGridColumn, { ...dash(pid, dashId), body: input });
      return dashId;
    },
    onSuccess: (dashId) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: scopeKey(D.dashboard, { projectId: pid, dashId }) }),
        qc.invalidateQueries({ queryKey: dashListKey(pid), exact: true }),
      ]),
    meta: { silent: true },
  });
}

export function useDeleteColumn(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: (id: string) => api(D.deleteGridColumn, { params: { projectId: pid, dashId, colId: id } }),
    onSuccess: invalidate,
  });
}

export type GridPosition = { id: string; width: number; height: number; xAxis: number; yAxis: number };

/** Saves every panel's position; the dashboard cache is patched in place (no refetch, no re-layout). */
export function useSaveLayout(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (positions: GridPosition[]) => api(D.layoutGrid, { ...dash(pid, dashId), body: positions }),
    onSuccess: ({ grid }) => {
      qc.setQueryData(queryKey(D.dashboard, dash(pid, dashId)), (old: unknown) =>
        old && typeof old === 'object' ? { ...old, grid: grid as GridColumn[] } : old,
      );
    },
  });
}

export function useSaveGridQuery(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: (gridQuery: string) => api(D.updateDashboard, { ...dash(pid, dashId), body: { gridQuery } }),
    onSuccess: invalidate,
  });
}

/** Every gauge list of the dashboard (grid and table). */
const allGaugesKey = (pid: number, dashId: string) => queryKey(D.gauges, dash(pid, dashId));

export function useSaveGauge(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: GaugeInput }) =>
      id
        ? api(D.updateGauge, { params: { projectId: pid, dashId, gaugeId: id }, body: input })
        : api(D.addGauge, { ...dash(pid, dashId), body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: allGaugesKey(pid, dashId) }),
    meta: { silent: true },
  });
}

export function useDeleteGauge(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(D.deleteGauge, { params: { projectId: pid, dashId, gaugeId: id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: allGaugesKey(pid, dashId) }),
  });
}

export function useReorderGauges(pid: number, dashId: string, kind: 'grid' | 'table') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (order: Gauge[]) =>
      api(D.reorderGauges, { ...dash(pid, dashId), body: order.map((g, index) => ({ id: g.id, index })) }),
    onMutate: (order) => qc.setQueryData(gaugesKey(pid, dashId, kind), { gauges: order }),
    onSettled: () => qc.invalidateQueries({ queryKey: gaugesKey(pid, dashId, kind) }),
  });
}

/** The panel's YAML as the dashboard export writes it. */
export const fetchColumnYaml = (pid: number, dashId: string, colId: string) =>
  api(D.gridColumnYaml, { params: { projectId: pid, dashId, colId } });
