import { metricsRoutes } from '@lantern/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, queryKey } from '../../lib/api/api';

type Range = { time_gte: string; time_lt: string };
const R = metricsRoutes;

/** The project's metrics (catalogue): name, description, instrument, unit, attribute keys. */
export const metricsListQuery = (projectId: number) => {
  const input = { params: { projectId }, query: {} };
  return {
    queryKey: queryKey(R.metricsList, input),
    queryFn: ({ signal }: { signal: AbortSignal }) => api(R.metricsList, input, { signal }),
    staleTime: 30_000,
  };
};

export function useMetricsList(projectId: number | undefined) {
  return useQuery({ ...metricsListQuery(projectId ?? 0), enabled: projectId !== undefined });
}

/** One metric's instrument, unit and description; undefined `metric`: nothing asked. */
export function useMetricDescribe(projectId: number, metric: string | undefined) {
  const input = { params: { projectId }, query: { metric: metric ? [metric] : [] } };
  return useQuery({
    queryKey: queryKey(R.metricsDescribe, input),
    queryFn: ({ signal }) => api(R.metricsDescribe, input, { signal }),
    enabled: metric !== undefined,
    staleTime: 60_000,
  });
}

/**
 * Metrics seen in the range with their number of timeseries, filtered by attribute keys they all
 * have and by `search_input` (text in the metric name, case-insensitive).
 */
export function useMetricsStats(projectId: number, p: Range & { attr_key: string[]; search_input: string }) {
  const input = { params: { projectId }, query: p };
  return useQuery({
    queryKey: queryKey(R.metricsStats, input),
    queryFn: ({ signal }) => api(R.metricsStats, input, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Attribute keys with the number of metrics having each (all metrics when `metric` is empty). */
export function useMetricAttrKeys(projectId: number, p: Range & { metric: string[] }, enabled = true) {
  const input = { params: { projectId }, query: p };
  return useQuery({
    queryKey: queryKey(R.metricsAttrKeys, input),
    queryFn: ({ signal }) => api(R.metricsAttrKeys, input, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Values of one attribute of the metrics in the range, with the number of timeseries having each. */
export function useMetricAttrValues(
  projectId: number,
  p: Range & { metric: string[]; attr_key: string; query?: string; var?: string[] },
  enabled = true,
) {
  const input = { params: { projectId }, query: p };
  return useQuery({
    queryKey: queryKey(R.metricsAttrValues, input),
    queryFn: ({ signal }) => api(R.metricsAttrValues, input, { signal }),
    enabled: enabled && p.metric.length > 0 && p.attr_key !== '',
    staleTime: 30_000,
  });
}

/** Timeseries of a metrics query; the server's per-part errors come back in `query.parts`. */
export function useMetricTimeseries(
  projectId: number,
  p: (Range & { metric: string[]; alias: string[]; query: string }) | undefined,
) {
  const input = { params: { projectId }, query: p ?? { time_gte: '', time_lt: '', metric: [], alias: [], query: '' } };
  return useQuery({
    queryKey: queryKey(R.metricsTimeseries, input),
    queryFn: ({ signal }) => api(R.metricsTimeseries, input, { signal }),
    enabled: p !== undefined && p.metric.length > 0,
    placeholderData: keepPreviousData,
    meta: { silent: true },
    retry: false,
  });
}
