import { metricsRoutes, tracingRoutes } from '@lantern/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queryKey } from './api';

/**
 * Pins or unpins an attribute for the project's facet lists (spans and metrics share the list), then
 * refetches every `attr-keys` answer so pinned keys move to the top.
 */
export function usePinFacet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ attr, pinned }: { attr: string; pinned: boolean }) =>
      api(pinned ? tracingRoutes.pinFacet : tracingRoutes.unpinFacet, { body: { attr } }),
    onSuccess: () =>
      Promise.all(
        [tracingRoutes.tracingAttrKeys, metricsRoutes.metricsAttrKeys].map((c) =>
          client.invalidateQueries({ queryKey: queryKey(c) }),
        ),
      ),
  });
}
