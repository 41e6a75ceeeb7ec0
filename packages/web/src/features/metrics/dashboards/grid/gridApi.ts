import {
  GaugeInput,
  GaugeResponse,
  GridColumnInput,
  HeatmapResponse,
  MetricTimeseriesResponse,
  TableResponse,
  type Gauge,
  type GridColumn,
  type MetricAlias,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiRequest } from '../../../../lib/api/apiClient';

/**
 * The data calls of the dashboard grid and gauges: the metric queries each panel runs
 * (timeseries / table / heatmap / gauge) and the grid, gauge and grid-query mutations. Every
 * mutation invalidates the dashboard (`['metrics', pid, 'dashboards', dashId]`, dash-shell's key).
 */
export type Range = { time_gte: string; time_lt: string };

const dashBase = (pid: number, dashId: string) => `/api/v1/metrics/${pid}/dashboards/${dashId}`;
export const dashShowKey = (pid: number, dashId: string) => ['metrics', pid, 'dashboards', dashId] as const;
const dashListKey = (pid: number) => ['metrics', pid, 'dashboards'] as const;
export const gaugesKey = (pid: number, dashId: string, kind: string) =>
  ['metrics', pid, 'dashboards', dashId, 'gauges', kind] as const;

const Stamps = z.object({
  id: z.string(),
  projectId: z.number(),
  dashId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const GridColumnSchema = GridColumnInput.and(Stamps);
const GaugeSchema = GaugeInput.and(Stamps);
const GaugesResponse = z.object({ gauges: z.array(GaugeSchema) });

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

/** The query of one metrics call; panels and the dashboard's prefetch share it (same key). */
function metricCallOptions<S extends z.ZodType>(
  schema: S,
  pid: number,
  kind: string,
  params: Record<string, string | string[]> | undefined,
) {
  return {
    queryKey: ['metrics', pid, kind, params],
    queryFn: ({ signal }: { signal: AbortSignal }) => apiGet(schema, `/api/v1/metrics/${pid}/${kind}`, params, signal),
    // Fresh for a while, so a panel mounting after the prefetch answered does not ask again;
    // Reload and range changes still refetch.
    staleTime: 30_000,
  };
}

function useMetricCall<S extends z.ZodType>(
  schema: S,
  pid: number,
  kind: string,
  params: Record<string, string | string[]> | undefined,
) {
  return useQuery({
    ...metricCallOptions(schema, pid, kind, params),
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
    // A panel shows its own error (spec §8): no toast, no retries of a bad query.
    meta: { silent: true },
    retry: false,
  });
}

const heatmapParams = (p: { metric: string; query: string }, range: Range) => ({
  metric: [p.metric],
  query: p.query,
  ...range,
});

export const useTimeseries = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(MetricTimeseriesResponse, pid, 'timeseries', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useMetricTable = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(TableResponse, pid, 'table', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useGaugeValues = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(GaugeResponse, pid, 'gauge', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useHeatmap = (pid: number, p: { metric: string; query: string } | undefined, range: Range) =>
  useMetricCall(HeatmapResponse, pid, 'heatmap', p && p.metric ? heatmapParams(p, range) : undefined);

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
  const prefetch = <S extends z.ZodType>(schema: S, kind: string, params: Record<string, string | string[]>) =>
    void qc.prefetchQuery({ ...metricCallOptions(schema, pid, kind, params), retry: false, meta: { silent: true } });
  for (const c of grid) {
    const query = joinQuery(c.params.query, gridQuery);
    if (c.type === 'heatmap') {
      if (c.params.metric)
        prefetch(HeatmapResponse, 'heatmap', heatmapParams({ metric: c.params.metric, query }, range));
    } else if (c.params.metrics.length) {
      const params = metricQuery({ metrics: c.params.metrics, query }, range);
      if (c.type === 'chart') prefetch(MetricTimeseriesResponse, 'timeseries', params);
      else prefetch(TableResponse, 'table', params);
    }
  }
}

export function useDashGauges(pid: number, dashId: string, kind: 'grid' | 'table') {
  return useQuery({
    queryKey: gaugesKey(pid, dashId, kind),
    queryFn: ({ signal }) => apiGet(GaugesResponse, `${dashBase(pid, dashId)}/gauges`, { dash_kind: kind }, signal),
  });
}

/** Invalidates the dashboard (grid), its gauges and the list after a change. */
function useDashInvalidate(pid: number, dashId: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: dashShowKey(pid, dashId) }),
      qc.invalidateQueries({ queryKey: dashListKey(pid), exact: true }),
    ]);
}

export function useSaveColumn(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: GridColumnInput }) =>
      id
        ? apiRequest(z.object({ column: GridColumnSchema }), `${dashBase(pid, dashId)}/grid/${id}`, {
            method: 'PUT',
            body: input,
          })
        : apiRequest(z.object({ column: GridColumnSchema }), `${dashBase(pid, dashId)}/grid`, {
            method: 'POST',
            body: input,
          }),
    onSuccess: invalidate,
    meta: { silent: true },
  });
}

export function useDeleteColumn(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(z.object({ column: GridColumnSchema }), `${dashBase(pid, dashId)}/grid/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export type GridPosition = { id: string; width: number; height: number; xAxis: number; yAxis: number };

/** Saves every panel's position; the dashboard cache is patched in place (no refetch, no re-layout). */
export function useSaveLayout(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (positions: GridPosition[]) =>
      apiRequest(z.object({ grid: z.array(GridColumnSchema) }), `${dashBase(pid, dashId)}/grid`, {
        method: 'PUT',
        body: positions,
      }),
    onSuccess: ({ grid }) => {
      qc.setQueryData(dashShowKey(pid, dashId), (old: unknown) =>
        old && typeof old === 'object' ? { ...old, grid: grid as GridColumn[] } : old,
      );
    },
  });
}

export function useSaveGridQuery(pid: number, dashId: string) {
  const invalidate = useDashInvalidate(pid, dashId);
  return useMutation({
    mutationFn: (gridQuery: string) =>
      apiRequest(z.object({ dashboard: z.unknown() }), dashBase(pid, dashId), { method: 'PUT', body: { gridQuery } }),
    onSuccess: invalidate,
  });
}

export function useSaveGauge(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: GaugeInput }) =>
      id
        ? apiRequest(z.object({ gauge: GaugeSchema }), `${dashBase(pid, dashId)}/gauges/${id}`, {
            method: 'PUT',
            body: input,
          })
        : apiRequest(z.object({ gauge: GaugeSchema }), `${dashBase(pid, dashId)}/gauges`, {
            method: 'POST',
            body: input,
          }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...dashShowKey(pid, dashId), 'gauges'] }),
    meta: { silent: true },
  });
}

export function useDeleteGauge(pid: number, dashId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(z.object({ gauge: GaugeSchema }), `${dashBase(pid, dashId)}/gauges/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...dashShowKey(pid, dashId), 'gauges'] }),
  });
}

export function useReorderGauges(pid: number, dashId: string, kind: 'grid' | 'table') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (order: Gauge[]) =>
      apiRequest(GaugesResponse, `${dashBase(pid, dashId)}/gauges`, {
        method: 'PUT',
        body: order.map((g, index) => ({ id: g.id, index })),
      }),
    onMutate: (order) => qc.setQueryData(gaugesKey(pid, dashId, kind), { gauges: order }),
    onSettled: () => qc.invalidateQueries({ queryKey: gaugesKey(pid, dashId, kind) }),
  });
}

/** The panel's YAML as the dashboard export writes it. */
export const fetchColumnYaml = (pid: number, dashId: string, colId: string) =>
  fetch(`${dashBase(pid, dashId)}/grid/${colId}/yaml`, { credentials: 'include' }).then(async (res) => {
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    return res.text();
  });
