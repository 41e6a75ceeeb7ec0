import {
  AttrKeysResponse,
  AttrValuesResponse,
  GroupStatsResponse,
  GroupsResponse,
  PercentilesResponse,
  SavedViewResponse,
  SavedViewsResponse,
  SpanResponse,
  SpansResponse,
  SystemsResponse,
  TimeseriesResponse,
  TraceResponse,
  TraceSearchResponse,
  type AttrKeyKind,
  type SavedViewInput,
} from '@lantern/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiRequest } from '../../lib/api/apiClient';

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

type Params = Record<string, string | number | boolean | string[] | undefined>;

export const tracingKeys = {
  search: (traceId: string) => ['traces', 'search', traceId] as const,
  trace: (projectId: number | undefined, traceId: string) => ['tracing', projectId, 'traces', traceId] as const,
  span: (projectId: number | undefined, traceId: string, spanId: string) =>
    ['tracing', projectId, 'traces', traceId, spanId] as const,
  call: (projectId: number | undefined, name: string, params: unknown) => ['tracing', projectId, name, params] as const,
  savedViews: (projectId: number | undefined) => ['tracing', projectId, 'saved-views'] as const,
};

const base = (projectId: number | undefined) => `/api/v1/tracing/${projectId}`;

function useTracingQuery<S extends z.ZodType>(
  schema: S,
  projectId: number | undefined,
  name: string,
  params: Params | undefined,
  opts: { enabled?: boolean; silent?: boolean; staleTime?: number } = {},
) {
  const ready = projectId !== undefined && params !== undefined && (opts.enabled ?? true);
  return useQuery({
    queryKey: tracingKeys.call(projectId, name, params),
    queryFn: ({ signal }) => apiGet(schema, `${base(projectId)}/${name}`, params, signal),
    enabled: ready,
    placeholderData: keepPreviousData,
    meta: { silent: opts.silent },
    staleTime: opts.staleTime,
  });
}

/** Which project holds a trace (TraceFind). A 404 is the "not yet ingested" answer, shown by the page. */
export function useTraceSearch(traceId: string) {
  return useQuery({
    queryKey: tracingKeys.search(traceId),
    queryFn: ({ signal }) => apiGet(TraceSearchResponse, '/api/v1/traces/search', { trace_id: traceId }, signal),
    meta: { silent: true },
    // A trace that was not found may arrive any second: always ask again when the page opens.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useTrace(projectId: number | undefined, traceId: string) {
  return useQuery({
    queryKey: tracingKeys.trace(projectId, traceId),
    queryFn: ({ signal }) => apiGet(TraceResponse, `${base(projectId)}/traces/${traceId}`, undefined, signal),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}

export function useSpan(projectId: number | undefined, traceId: string, spanId: string) {
  return useQuery({
    queryKey: tracingKeys.span(projectId, traceId, spanId),
    queryFn: ({ signal }) => apiGet(SpanResponse, `${base(projectId)}/traces/${traceId}/${spanId}`, undefined, signal),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}

export const useSystems = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(SystemsResponse, projectId, 'systems', params as Params | undefined);

/** Groups; an invalid_query answer is shown by the page (banner), not as a toast. */
export const useGroups = (
  projectId: number | undefined,
  params: (RangeQuery & { sort_by?: string; sort_desc?: boolean }) | undefined,
) => useTracingQuery(GroupsResponse, projectId, 'groups', params as Params | undefined, { silent: true });

/** Sparkline series per plotted column of one group; cached (spec §7). */
export const useGroupStats = (projectId: number | undefined, params: (RangeQuery & { column: string[] }) | undefined) =>
  useTracingQuery(
    GroupStatsResponse,
    projectId,
    'group-stats',
    params && params.column.length ? (params as Params) : undefined,
    { staleTime: 60_000 },
  );

export const usePercentiles = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(PercentilesResponse, projectId, 'percentiles', params as Params | undefined);

export const useSpans = (
  projectId: number | undefined,
  params: (RangeQuery & { sort_by?: string; sort_desc?: boolean; page?: number; limit?: number }) | undefined,
) => useTracingQuery(SpansResponse, projectId, 'spans', params as Params | undefined);

export const useTimeseries = (projectId: number | undefined, params: RangeQuery | undefined) =>
  useTracingQuery(TimeseriesResponse, projectId, 'timeseries', params as Params | undefined, { silent: true });

/** `kind`, `with_columns` and `func` ask for the keys that fit (reference query §6.1, shared AttrKeysParams). */
export const useAttrKeys = (
  projectId: number | undefined,
  params: (RangeQuery & { kind?: AttrKeyKind; with_columns?: boolean; func?: string }) | undefined,
  enabled = true,
) => useTracingQuery(AttrKeysResponse, projectId, 'attr-keys', params as Params | undefined, { enabled });

export const useAttrValues = (
  projectId: number | undefined,
  params: (RangeQuery & { attr_key: string; search_input?: string }) | undefined,
  enabled = true,
) =>
  useTracingQuery(
    AttrValuesResponse,
    projectId,
    'attr-values',
    params && params.attr_key ? (params as Params) : undefined,
    { enabled, staleTime: 30_000 },
  );

// ---- saved views ---------------------------------------------------------------------------------

export function useSavedViews(projectId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: tracingKeys.savedViews(projectId),
    queryFn: ({ signal }) => apiGet(SavedViewsResponse, `${base(projectId)}/saved-views`, undefined, signal),
    enabled: projectId !== undefined && enabled,
  });
}

const Empty = z.object({}).passthrough();

export function useSavedViewMutations(projectId: number | undefined) {
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: tracingKeys.savedViews(projectId) });
  const save = useMutation({
    mutationFn: (input: SavedViewInput) =>
      apiRequest(SavedViewResponse, `${base(projectId)}/saved-views`, { method: 'POST', body: input }),
    onSuccess: reload,
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiRequest(Empty, `${base(projectId)}/saved-views/${id}`, { method: 'DELETE' }),
    onSuccess: reload,
  });
  const pin = useMutation({
    mutationFn: ({ id, pinned }: { id: number; pinned: boolean }) =>
      apiRequest(Empty, `${base(projectId)}/saved-views/${id}/${pinned ? 'pinned' : 'unpinned'}`, { method: 'PUT' }),
    onSuccess: reload,
  });
  return { save, remove, pin };
}
