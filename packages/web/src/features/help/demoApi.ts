import { projectRoutes, tracingRoutes } from '@lantern/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, scopeKey } from '../../lib/api/api';

/** "Send demo data": the server generates traces and sends them through its own OTLP/HTTP ingest. */
export function useSendDemoData(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(projectRoutes.sendDemoData, { params: { projectId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: scopeKey(tracingRoutes.tracingSpans, { projectId }) }),
  });
}
