import { attrDeltasRoutes } from '@lantern/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, queryKey } from '../../../../lib/api/api';
import type { RangeQuery } from '../../tracingApi';

/** The calls of "What changed" (issue 38): the duration heatmap and the attribute deltas of a selection. */

const R = attrDeltasRoutes;

export function useDurationHeatmap(projectId: number, range: RangeQuery) {
  const input = { params: { projectId }, query: range };
  return useQuery({
    queryKey: queryKey(R.tracingDurationHeatmap, input),
    queryFn: ({ signal }) => api(R.tracingDurationHeatmap, input, { signal }),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/** Nothing is asked while `selection` is undefined. */
export function useAttrDeltas(projectId: number, range: RangeQuery, selection: string | undefined) {
  const input = { params: { projectId }, query: { ...range, selection: selection ?? '' } };
  return useQuery({
    queryKey: queryKey(R.tracingAttrDeltas, input),
    queryFn: ({ signal }) => api(R.tracingAttrDeltas, input, { signal }),
    enabled: selection !== undefined,
    meta: { silent: true },
  });
}
