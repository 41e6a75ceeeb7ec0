import { MetricsListResponse } from '@lantern/shared';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/apiClient';

/** Keys of the metrics calls: `['metrics', projectId, name, params]`. */
export const metricsKeys = {
  list: (projectId: number) => ['metrics', projectId, 'list'] as const,
};

/** The project's metrics (catalogue): name, description, instrument, unit, attribute keys. */
export function useMetricsList(projectId: number | undefined) {
  return useQuery({
    queryKey: metricsKeys.list(projectId ?? 0),
    queryFn: ({ signal }) => apiGet(MetricsListResponse, `/api/v1/metrics/${projectId}`, undefined, signal),
    enabled: projectId !== undefined,
    staleTime: 30_000,
  });
}
