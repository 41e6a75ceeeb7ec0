import {
  MetricAttrKeysResponse,
  MetricAttrValuesResponse,
  MetricsListResponse,
  MetricsStatsResponse,
  MetricTimeseriesResponse,
} from '@lantern/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/apiClient';

type Range = { time_gte: string; time_lt: string };

/** Keys of the metrics calls: `['metrics', projectId, name, params]`. */
export const metricsKeys = {
  list: (projectId: number) => ['metrics', projectId, 'list'] as const,
  stats: (projectId: number, params: object) => ['metrics', projectId, 'stats', params] as const,
  attrKeys: (projectId: number, params: object) => ['metrics', projectId, 'attr-keys', params] as const,
  attrValues: (projectId: number, params: object) => ['metrics', projectId, 'attr-values', params] as const,
  timeseries: (projectId: number, params: object) => ['metrics', projectId, 'timeseries', params] as const,
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

/** Metrics seen in the range with their number of timeseries, filtered by attribute keys they all have. */
export function useMetricsStats(projectId: number, p: Range & { attr_key: string[] }) {
  return useQuery({
    queryKey: metricsKeys.stats(projectId, p),
    queryFn: ({ signal }) => apiGet(MetricsStatsResponse, `/api/v1/metrics/${projectId}/stats`, p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Attribute keys with the number of metrics having each (all metrics when `metric` is empty). */
export function useMetricAttrKeys(projectId: number, p: Range & { metric: string[] }, enabled = true) {
  return useQuery({
    queryKey: metricsKeys.attrKeys(projectId, p),
    queryFn: ({ signal }) => apiGet(MetricAttrKeysResponse, `/api/v1/metrics/${projectId}/attr-keys`, p, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Values of one attribute of the metrics in the range, with the number of timeseries having each. */
export function useMetricAttrValues(
  projectId: number,
  p: Range & { metric: string[]; attr_key: string },
  enabled = true,
) {
  return useQuery({
    queryKey: metricsKeys.attrValues(projectId, p),
    queryFn: ({ signal }) => apiGet(MetricAttrValuesResponse, `/api/v1/metrics/${projectId}/attr-values`, p, signal),
    enabled: enabled && p.metric.length > 0 && p.attr_key !== '',
    staleTime: 30_000,
  });
}

/** Timeseries of a metrics query; the server's per-part errors come back in `query.parts`. */
export function useMetricTimeseries(
  projectId: number,
  p: (Range & { metric: string[]; alias: string[]; query: string }) | undefined,
) {
  return useQuery({
    queryKey: metricsKeys.timeseries(projectId, p ?? {}),
    queryFn: ({ signal }) => apiGet(MetricTimeseriesResponse, `/api/v1/metrics/${projectId}/timeseries`, p, signal),
    enabled: p !== undefined && p.metric.length > 0,
    placeholderData: keepPreviousData,
    meta: { silent: true },
    retry: false,
  });
}
