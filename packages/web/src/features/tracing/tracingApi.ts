import { tracingRoutes, type RouteQuery, type SavedViewInput } from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryKey, type ApiInput } from '../../lib/api/api';

/**
 * Every tracing call of the web app (spec tracing §7), one hook per endpoint. Parameters that are
 * still undefined block the request (spec §5: a request is not sent while a value is undefined);
 * list and chart queries keep the previous answer on screen while the next one loads.
 */
export type RangeQuery = {
  time_gte: string;
  time_lt: string;
  system?: string[];
  query?: string;
  group_id?: string;
};

const R = tracingRoutes;
const projectParams = (projectId: number | undefined) => ({ projectId: projectId ?? 0 });

type TracingQueryContract =
  | typeof R.tracingSystems
  | typeof R.tracingGroups
  | typeof R.tracingGroupStats
  | typeof R.tracingPercentiles
  | typeof R.tracingSpans
  | typeof R.tracingTimeseries
  | typeof R.tracingAttrKeys
  | typeof R.tracingAttrValues;

function useTracingQuery<C extends TracingQueryContract>(
  contract: C,
  projectId: number | undefined,
  query: RouteQuery<C> | undefined,
  opts: { enabled?: boolean; silent?: boolean; staleTime?: number } = {},
) {
  const ready = projectId !== undefined && query !== undefined && (opts.enabled ?? true);
  // Generic over the contracts: their inputs differ only in the query, which `query` types per contract.
  const input = { params: projectParams(projectId), query } as unknown as ApiInput<C>;
  return useQuery({
    queryKey: queryKey(contract, input),
    queryFn: ({ signal }) => api(contract, input, { signal }),
    enabled: ready,
    placeholderData: keepPreviousData,
    meta: { silent: opts.silent },
    staleTime: opts.staleTime,
  });
}

/** Which project holds a trace (TraceFind). A 404 is the "not yet ingested" answer, shown by the page. */
export function useTraceSearch(traceId: string) {
  return useQuery({
    queryKey: queryKey(R.traceSearch, { query: { trace_id: traceId } }),
    queryFn: ({ signal }) => api(R.traceSearch, { query: { trace_id: traceId } }, { signal }),
    meta: { silent: true },
    // A trace that was not found may arrive any second: always ask again when the page opens.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useTrace(projectId: number | undefined, traceId: string) {
  const input = { params: { ...projectParams(projectId), traceId } };
  return useQuery({
    queryKey: queryKey(R.trace, input),
    queryFn: ({ signal }) => api(R.trace, input, { signal }),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}

export function useSpan(projectId: number | undefined, traceId: string, spanId: string) {
  const input = { params: { ...projectParams(projectId), traceId, spanId } };
  return useQuery({
    queryKey: queryKey(R.traceSpan, input),
    queryFn: ({ signal }) => api(R.traceSpan, input, { signal }),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}

export const useSystems = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(R.tracingSystems, projectId, params);

/**
 * Groups; an invalid_query answer is shown by the page (banner), not as a toast. `stats_column`: the
 * first `stats_rows` groups come with their sparkline series (`stats`), no group-stats call each.
 */
export const useGroups = (
  projectId: number | undefined,
  params:
    | (RangeQuery & {
        sort_by?: string;
        sort_desc?: boolean;
        limit?: number;
        stats_column?: string[];
        stats_rows?: number;
      })
    | undefined,
) => useTracingQuery(R.tracingGroups, projectId, params, { silent: true });

/** Sparkline series per plotted column of one group; cached (spec §7). */
export const useGroupStats = (projectId: number | undefined, params: (RangeQuery & { column: string[] }) | undefined) =>
  useTracingQuery(R.tracingGroupStats, projectId, params && params.column.length ? params : undefined, {
    staleTime: 60_000,
  });

export const usePercentiles = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(R.tracingPercentiles, projectId, params);

export const useSpans = (
  projectId: number | undefined,
  params: (RangeQuery & { sort_by?: string; sort_desc?: boolean; page?: number; limit?: number }) | undefined,
) => useTracingQuery(R.tracingSpans, projectId, params);

export const useTimeseries = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(R.tracingTimeseries, projectId, params, { silent: true });

/** `kind`, `with_columns` and `func` ask for the keys that fit (reference query §6.1, shared AttrKeysParams). */
export const useAttrKeys = (
  projectId: number | undefined,
  params: RouteQuery<typeof R.tracingAttrKeys> | undefined,
  enabled = true,
) => useTracingQuery(R.tracingAttrKeys, projectId, params, { enabled });

export const useAttrValues = (
  projectId: number | undefined,
  params: (RangeQuery & { attr_key: string; search_input?: string }) | undefined,
  enabled = true,
) =>
  useTracingQuery(R.tracingAttrValues, projectId, params && params.attr_key ? params : undefined, {
    enabled,
    staleTime: 30_000,
  });

// ---- saved views ---------------------------------------------------------------------------------

export function useSavedViews(projectId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKey(R.savedViews, { params: projectParams(projectId) }),
    queryFn: ({ signal }) => api(R.savedViews, { params: projectParams(projectId) }, { signal }),
    enabled: projectId !== undefined && enabled,
  });
}

export function useSavedViewMutations(projectId: number | undefined) {
  const client = useQueryClient();
  const params = projectParams(projectId);
  const reload = () => client.invalidateQueries({ queryKey: queryKey(R.savedViews, { params }) });
  const save = useMutation({
    mutationFn: (body: SavedViewInput) => api(R.createSavedView, { params, body }),
    onSuccess: reload,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(R.deleteSavedView, { params: { ...params, viewId: id } }),
    onSuccess: reload,
  });
  const pin = useMutation({
    mutationFn: ({ id, pinned }: { id: number; pinned: boolean }) =>
      api(pinned ? R.pinSavedView : R.unpinSavedView, { params: { ...params, viewId: id } }),
    onSuccess: reload,
  });
  return { save, remove, pin };
}
