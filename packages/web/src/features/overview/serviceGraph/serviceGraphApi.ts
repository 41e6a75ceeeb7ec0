import { tracingRoutes, type ServiceGraphSeriesParams } from '@lantern/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, queryKey } from '../../../lib/api/api';

/** The service graph's calls (issue 36): the graph over a range, and one node's or edge's series. */
export function useServiceGraph(projectId: number, range: { time_gte: string; time_lt: string }) {
  const input = { params: { projectId }, query: range };
  return useQuery({
    queryKey: queryKey(tracingRoutes.serviceGraph, input),
    queryFn: ({ signal }) => api(tracingRoutes.serviceGraph, input, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useServiceGraphSeries(projectId: number, query: ServiceGraphSeriesParams | undefined) {
  const input = { params: { projectId }, query: query ?? { time_gte: '', time_lt: '' } };
  return useQuery({
    queryKey: queryKey(tracingRoutes.serviceGraphSeries, input),
    queryFn: ({ signal }) => api(tracingRoutes.serviceGraphSeries, input, { signal }),
    enabled: query !== undefined,
  });
}
