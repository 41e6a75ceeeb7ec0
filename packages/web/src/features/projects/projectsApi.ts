import { ProjectResponse } from '@lantern/shared';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/apiClient';

export function useProject(projectId: number | undefined) {
  return useQuery({
    queryKey: ['projects', projectId],
    queryFn: ({ signal }) => apiGet(ProjectResponse, `/api/v1/projects/${projectId}`, undefined, signal),
    enabled: projectId !== undefined,
    staleTime: 5 * 60_000,
  });
}
