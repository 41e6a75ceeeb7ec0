import { z } from 'zod';
import { route } from './contract';

export const Project = z.object({
  id: z.number().int(),
  name: z.string(),
  pinnedAttrs: z.array(z.string()),
  groupByEnv: z.boolean(),
  groupFuncsByService: z.boolean(),
});
export type Project = z.infer<typeof Project>;

export const Endpoint = z.object({ endpoint: z.string(), dsn: z.string() });

export const ProjectResponse = z.object({
  project: Project,
  grpc: Endpoint,
  http: Endpoint,
});
export type ProjectResponse = z.infer<typeof ProjectResponse>;

export const projectRoutes = {
  getProject: route({
    id: 'getProject',
    method: 'GET',
    path: '/api/v1/projects/:projectId',
    response: ProjectResponse,
    errors: { 404: ['project_not_found'] },
    summary: 'A project and where its telemetry is sent (OTLP gRPC and HTTP endpoints with the DSN)',
    tags: ['projects'],
  }),
  sendDemoData: route({
    id: 'sendDemoData',
    method: 'POST',
    path: '/api/v1/projects/:projectId/demo-data',
    response: z.object({ traces: z.number().int(), spans: z.number().int() }),
    errors: { 400: ['no_token'], 404: ['project_not_found'], 503: ['demo_ingest_failed'] },
    summary: "Send a few hundred demo traces (with logs and errors) through the project's own OTLP endpoint",
    tags: ['projects'],
  }),
};
