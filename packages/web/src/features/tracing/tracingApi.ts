import { SpanResponse, TraceResponse, TraceSearchResponse } from '@lantern/shared';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/apiClient';

export const tracingKeys = {
  search: (traceId: string) => ['traces', 'search', traceId] as const,
  trace: (projectId: number | undefined, traceId: string) => ['tracing', projectId, 'traces', traceId] as const,
  span: (projectId: number | undefined, traceId: string, spanId: string) => ['tracing', projectId, 'traces', traceId, spanId] as const,
};

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
    queryFn: ({ signal }) => apiGet(TraceResponse, `/api/v1/tracing/${projectId}/traces/${traceId}`, undefined, signal),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}

export function useSpan(projectId: number | undefined, traceId: string, spanId: string) {
  return useQuery({
    queryKey: tracingKeys.span(projectId, traceId, spanId),
    queryFn: ({ signal }) => apiGet(SpanResponse, `/api/v1/tracing/${projectId}/traces/${traceId}/${spanId}`, undefined, signal),
    enabled: projectId !== undefined,
    meta: { silent: true },
  });
}
