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
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

function useMetricCall<S extends z.ZodType>(
  schema: S,
  pid: number,
  kind: string,
  params: Record<string, string | string[]> | undefined,
) {
  return useQuery({
    queryKey: ['metrics', pid, kind, params],
    queryFn: ({ signal }) => apiGet(schema, `/api/v1/metrics/${pid}/${kind}`, params, signal),
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
    // A panel shows its own error (spec §8): no toast, no retries of a bad query.
    meta: { silent: true },
    retry: false,
  });
}

export const useTimeseries = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(MetricTimeseriesResponse, pid, 'timeseries', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useMetricTable = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(TableResponse, pid, 'table', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useGaugeValues = (pid: number, p: MetricParams | undefined, range: Range) =>
  useMetricCall(GaugeResponse, pid, 'gauge', p && p.metrics.length ? metricQuery(p, range) : undefined);

export const useHeatmap = (pid: number, p: { metric: string; query: string } | undefined, range: Range) =>
  useMetricCall(
    HeatmapResponse,
    pid,
    'heatmap',
    p && p.metric ? { metric: [p.metric], query: p.query, ...range } : undefined,
  );

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
