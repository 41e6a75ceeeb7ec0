import { projectRoutes } from '@lantern/shared';
import { useQuery } from '@tanstack/react-query';
import { api, queryKey } from '../../lib/api/api';

export function useProject(projectId: number | undefined) {
  const input = { params: { projectId: projectId ?? 0 } };
  return useQuery({
    queryKey: queryKey(projectRoutes.getProject, input),
    queryFn: ({ signal }) => api(projectRoutes.getProject, input, { signal }),
    enabled: projectId !== undefined,
    staleTime: 5 * 60_000,
  });
}
