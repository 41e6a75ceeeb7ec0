import { z } from 'zod';

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
