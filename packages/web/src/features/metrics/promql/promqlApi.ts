import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PROMETHEUS_PREFIX, PromErrorResponse, PromQueryResponse, prometheusSessionPath } from '@lantern/shared';
import { z } from 'zod';
import { ApiError } from '../../../lib/api/apiClient';
import type { MatrixSeries } from './promqlResult';

/**
 * The web app's side of the Prometheus query API (`/api/prometheus/:projectId/api/v1/...`, signed in
 * with the session cookie): the base URL the editor's completion calls, and range queries parsed
 * from Prometheus's own JSON (`{status, data: {resultType, result}}`, errors `{status: "error",
 * errorType, error}`).
 */
export const promqlBaseUrl = (projectId: number) => `${PROMETHEUS_PREFIX}/${projectId}`;

const Answer = z.union([PromQueryResponse, PromErrorResponse]);

export interface RangeQuery {
  query: string;
  start: number;
  end: number;
  step: number;
  /** A dashboard's variable picks (`name=value`, issue 41): the server writes them into `$name`. */
  var?: string[];
}

export interface RangeAnswer {
  result: MatrixSeries[];
  warnings: string[];
}

/** One range query, posted form-encoded as Grafana does. Errors carry Prometheus's message. */
export async function queryRange(projectId: number, q: RangeQuery, signal?: AbortSignal): Promise<RangeAnswer> {
  const body = new URLSearchParams({
    query: q.query,
    start: String(q.start),
    end: String(q.end),
    step: String(q.step),
  });
  for (const v of q.var ?? []) body.append('var', v);
  let res: Response;
  try {
    res = await fetch(prometheusSessionPath(projectId, 'query_range'), {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check that Lantern is running.');
  }
  const parsed = Answer.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}`);
  const answer = parsed.data;
  if (answer.status === 'error') throw new ApiError(res.status, answer.errorType, answer.error);
  // A range query answers a matrix (Prometheus turns scalars into one series too).
  const result = answer.data.resultType === 'matrix' ? answer.data.result : [];
  return { result, warnings: answer.warnings ?? [] };
}

/** A range query as a TanStack query; undefined `q`: nothing asked. The last answer stays while the next loads. */
export function usePromqlRange(projectId: number, q: RangeQuery | undefined) {
  return useQuery({
    queryKey: ['promql', 'query_range', projectId, q],
    queryFn: ({ signal }) => queryRange(projectId, q as RangeQuery, signal),
    enabled: q !== undefined && q.query.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}
