import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPost } from '../../lib/api/apiClient';

const DemoDataResponse = z.object({ traces: z.number(), spans: z.number() });

/** "Send demo data": the server generates traces and sends them through its own OTLP/HTTP ingest. */
export function useSendDemoData(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost(DemoDataResponse, `/api/v1/projects/${projectId}/demo-data`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['tracing', projectId] }),
  });
}
