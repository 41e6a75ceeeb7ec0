import type * as grpc from '@grpc/grpc-js';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { ProjectsService } from '../projects';
import type { Batcher } from './batcher';
import { createIngestGrpcServer } from './ingest.grpc';
import { registerIngestHttpRoutes } from './ingest.http';
import { createIngestPipeline } from './ingestPipeline';
import { IngestStats } from './ingestStats';
import { createLogsIngest } from './logsIngest';
import { createTraceIngest } from './tracesIngest';
import { createVectorIngest, createZipkinIngest } from './zipkinVectorIngest';

/**
 * Builds every ingest path on one batcher: OTLP traces and logs (HTTP + gRPC), Zipkin, Vector, the self-telemetry
 * counters with their `GET /api/v1/internal/stats` route and a once-a-minute log line.
 */
export interface Ingest {
  stats: IngestStats;
  grpc: grpc.Server;
  registerHttp(app: FastifyInstance): Promise<void>;
  /** Stops the periodic stats log line. */
  close(): void;
}

export interface IngestDeps {
  config: Config;
  batcher: Batcher;
  projects: ProjectsService;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createIngest({ config, batcher, projects, log }: IngestDeps): Ingest {
  const limits = config.ingest;
  const stats = new IngestStats(batcher.stats, { maxRows: limits.queue_rows, maxBytes: limits.queue_bytes });
  const pipeline = createIngestPipeline({ batcher, stats, maxRowsPerRequest: limits.max_rows_per_request, queueRows: limits.queue_rows, queueBytes: limits.queue_bytes });
  const otlp = { traces: createTraceIngest(pipeline), logs: createLogsIngest(pipeline) };
  const transport = { projects, pipeline, otlp, maxBodyBytes: limits.max_body_bytes };
  const json = { zipkin: createZipkinIngest(pipeline), vector: createVectorIngest(pipeline) };

  const timer = setInterval(() => log.info({ ingest: stats.snapshot() }, 'ingest stats'), limits.stats_log_interval_ms);
  timer.unref();

  return {
    stats,
    grpc: createIngestGrpcServer({ ...transport, log }),
    async registerHttp(app) {
      await registerIngestHttpRoutes(app, { ...transport, ...json });
      // Under /api/v1, so the auth hook requires a session.
      app.get('/api/v1/internal/stats', async () => stats.snapshot());
    },
    close: () => clearInterval(timer),
  };
}
