import { z } from 'zod';

/**
 * The service graph (issue 36): who calls whom over a time range, built from the spans. Counts
 * are over the range; durations are integer nanoseconds, as everywhere in the tracing API; a
 * percentile is null where nothing was measured (a service that serves no calls).
 */
export const ServiceGraphParams = z.object({
  time_gte: z.string({ error: 'time_gte is required' }).min(1, 'time_gte is required'),
  time_lt: z.string({ error: 'time_lt is required' }).min(1, 'time_lt is required'),
});
export type ServiceGraphParams = z.input<typeof ServiceGraphParams>;

export const ServiceGraphNodeType = z.enum(['service', 'database', 'messaging', 'external']);
export type ServiceGraphNodeType = z.infer<typeof ServiceGraphNodeType>;
export const ConnectionType = z.enum(['http', 'rpc', 'database', 'messaging', 'other']);
export type ConnectionType = z.infer<typeof ConnectionType>;

export const ServiceGraphNode = z.object({
  /** `service.name`; for a virtual node the name of what is called (`postgresql/shop`, `kafka/orders`, `api.example.com:443`), or `user`. */
  name: z.string(),
  type: ServiceGraphNodeType,
  /** Called (or calling: `user`) but sends no spans of its own. */
  virtual: z.boolean(),
  /** A service: its server spans. A virtual node: the calls into it, as the clients measured them. */
  calls: z.number(),
  errors: z.number(),
  p50: z.number().nullable(),
  p99: z.number().nullable(),
});
export type ServiceGraphNode = z.infer<typeof ServiceGraphNode>;

export const ServiceGraphEdge = z.object({
  client: z.string(),
  server: z.string(),
  connectionType: ConnectionType,
  /** The calls as the client measured them; an error when either half failed. */
  calls: z.number(),
  errors: z.number(),
  p50: z.number().nullable(),
  p99: z.number().nullable(),
});
export type ServiceGraphEdge = z.infer<typeof ServiceGraphEdge>;

export const ServiceGraphResponse = z.object({
  nodes: z.array(ServiceGraphNode),
  edges: z.array(ServiceGraphEdge),
});
export type ServiceGraphResponse = z.infer<typeof ServiceGraphResponse>;

/** One node's (`node`) or one edge's (`client` and `server`) numbers over time. */
export const ServiceGraphSeriesParams = ServiceGraphParams.extend({
  node: z.string().max(1000).optional(),
  client: z.string().max(1000).optional(),
  server: z.string().max(1000).optional(),
});
export type ServiceGraphSeriesParams = z.input<typeof ServiceGraphSeriesParams>;

export const ServiceGraphSeriesResponse = z.object({
  /** Bucket size in seconds. */
  bucket: z.number(),
  /** Start of each bucket, RFC 3339; the arrays below are aligned with it. */
  time: z.array(z.string()),
  calls: z.array(z.number()),
  errors: z.array(z.number()),
  p50: z.array(z.number().nullable()),
  p99: z.array(z.number().nullable()),
});
export type ServiceGraphSeriesResponse = z.infer<typeof ServiceGraphSeriesResponse>;
