import type * as grpc from '@grpc/grpc-js';
import type { FastifyInstance } from 'fastify';
import { systemRoutes } from '@lantern/shared';
import { registerRoute } from '../http/routes';
import type { Config } from '../config';
import type { ProjectsService } from '../projects';
import { createIngestGrpcServer } from './ingest.grpc';
import { registerIngestHttpRoutes, type JsonIngest } from './ingest.http';
import { createIngestPipeline, type SignalIngest, type SpanBatcher } from './ingestPipeline';
import { IngestStats, type IngestSignal } from './ingestStats';
import type { PreparePool } from './preparePool';

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
  batcher: SpanBatcher;
  pool: PreparePool;
  projects: ProjectsService;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** OTLP metrics (the metrics area's own decode, mapping and batcher). */
  metrics: SignalIngest;
  /** Prometheus remote write (the metrics area's too). */
  promWrite: JsonIngest;
  /** Where encoded span rows wait for their batch (TelemetryStore.stagingDir). */
  stagingDir: string | null;
  /**
   * Spans or logs of a project were stored, so its metrics from spans (metrics_from_spans) exist:
   * called once per project per quarter of an hour at most (dashboard templates over them).
   */
  onSpansStored?: (projectId: number) => void;
}

const SPANS_STORED_EVERY_MS = 15 * 60_000;

export function createIngest({
  config,
  batcher,
  pool,
  projects,
  log,
  metrics,
  promWrite,
  stagingDir,
  onSpansStored,
}: IngestDeps): Ingest {
  const limits = config.ingest;
  const stats = new IngestStats(batcher.stats, { maxRows: limits.queue_rows, maxBytes: limits.queue_bytes });
  const pipeline = createIngestPipeline({
    batcher,
    pool,
    stats,
    stagingDir,
    spanMetrics: config.metrics_from_spans,
    maxRowsPerRequest: limits.max_rows_per_request,
    queueRows: limits.queue_rows,
    queueBytes: limits.queue_bytes,
  });
  const told = new Map<number, number>();
  const stored = <T>(projectId: number, result: T): T => {
    const now = Date.now();
    if (onSpansStored && now - (told.get(projectId) ?? -Infinity) >= SPANS_STORED_EVERY_MS) {
      told.set(projectId, now);
      onSpansStored(projectId);
    }
    return result;
  };
  const run: typeof pipeline.run = async (signal, kind, project, format, body) =>
    stored(project.id, await pipeline.run(signal, kind, project, format, body));
  const otlp: Record<IngestSignal, SignalIngest> = {
    traces: (project, format, body) => run('traces', 'otlp_traces', project, format, body),
    logs: (project, format, body) => run('logs', 'otlp_logs', project, format, body),
    metrics,
  };
  const transport = { projects, pipeline, otlp, maxBodyBytes: limits.max_body_bytes };
  const json: Record<'zipkin' | 'vector' | 'promWrite', JsonIngest> = {
    zipkin: (project, body) => run('traces', 'zipkin', project, 'json', body),
    vector: (project, body) => run('logs', 'vector', project, 'json', body),
    promWrite,
  };

  const timer = setInterval(() => log.info({ ingest: stats.snapshot() }, 'ingest stats'), limits.stats_log_interval_ms);
  timer.unref();

  return {
    stats,
    grpc: createIngestGrpcServer({ ...transport, log }),
    async registerHttp(app) {
      await registerIngestHttpRoutes(app, { ...transport, ...json });
      // A session route (its contract's auth), unlike the ingest routes.
      registerRoute(app, systemRoutes.ingestStats, async () => stats.snapshot());
    },
    close: () => clearInterval(timer),
  };
}
