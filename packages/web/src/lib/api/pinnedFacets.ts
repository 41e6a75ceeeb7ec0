import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './apiClient';

const Empty = z.object({}).passthrough();

/**
 * Pins or unpins an attribute for the project's facet lists (spans and metrics share the list), then
 * refetches every `attr-keys` answer so pinned keys move to the top.
 */
export function usePinFacet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ attr, pinned }: { attr: string; pinned: boolean }) =>
      apiRequest(Empty, '/api/v1/pinned-facets', { method: pinned ? 'POST' : 'DELETE', body: { attr } }),
    onSuccess: () => client.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'attr-keys' }),
  });
}
