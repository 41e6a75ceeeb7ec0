import type { IngestSignalStats } from '@lantern/shared';
import type { ProjectConfig } from '../../config';
import { AppError, type AppErrorType } from '../../http/appError';
import {
  BatcherClosedError,
  QueueFullError,
  type Batcher,
  type BodyFormat,
  type PartialSuccess,
  type PreparePool,
} from '../../ingest';
import { unstageDatapoints, type StagedDatapoints } from '../../storage/telemetry';
import type { MetricsCatalogWriter } from './catalog';
import type { CumulativeState, StateJournal } from './cumulativeState';
import type { MetricInfo } from './datapointRows';
import { finishPrepared, PREPARE_METRICS_JOB } from './prepareMetrics';
import { promUndo, PromWriteState } from './promRemoteWrite';
import { PREPARE_PROM_JOB } from './promWriteWire';

/**
 * The transport-independent part of metrics ingest (OTLP/HTTP, OTLP/gRPC and Prometheus remote
 * write): decode, map to datapoint rows and encode them (for OTLP on the prepare pool's worker
 * threads, prepareMetrics.ts), run the cumulative-to-delta steps (here, on the one thread holding
 * the state), wait for the group commit of the rows, then record the catalogue. Same contract
 * as trace ingest: success only after the rows are committed; a full queue is a 429. A request
 * whose commit is refused or fails takes its steps back, so the client's retry counts in full.
 */
export type MetricsIngest = (
  project: ProjectConfig,
  format: BodyFormat,
  body: Buffer,
) => Promise<PartialSuccess | null>;

/**
 * Prometheus remote write (promRemoteWrite.ts): the snappy body in, decoded on the pool, the same
 * state and commit; `rejected` counts the samples that could not be stored (the rest is stored).
 */
export type PromWriteIngest = (project: ProjectConfig, body: Buffer) => Promise<PartialSuccess | null>;

/** Datapoint rows wait for their batch encoded and staged (storage/telemetry/datapointStaging.ts). */
export type DatapointBatcher = Batcher<StagedDatapoints>;

export function createMetricsIngest(deps: {
  batcher: DatapointBatcher;
  pool: PreparePool;
  state: CumulativeState;
  catalog: MetricsCatalogWriter;
  /** Where the workers stage large chunks (TelemetryStore.stagingDir). */
  stagingDir: string | null;
  /** The batcher's queue limits, to refuse before any decoding when it is already full. */
  queueRows: number;
  queueBytes: number;
  onNewMetrics?(projectId: number, names: string[]): void;
  log: { error(obj: object, msg: string): void };
  /** The `metrics` counters of ingest's self-telemetry (GET /api/v1/internal/stats). */
  counters(): IngestSignalStats;
  /** Largest remote write body after decompression. */
  maxBodyBytes: number;
  /** Attribute keys no series keeps (config `metrics.drop_attrs`). */
  dropAttrs: readonly string[];
}): { otlp: MetricsIngest; prometheus: PromWriteIngest } {
  const prom = new PromWriteState(deps.state.startedAtNs);
  const queue = deps.batcher.stats;
  /**
   * Admission before any work: under overload, decoding requests only to refuse them at the
   * queue would spend the CPU the queue needs to drain (as for spans, ingest/ingestPipeline.ts).
   */
  const admit = () => {
    if (queue.queuedRows < deps.queueRows && queue.queuedBytes < deps.queueBytes) return;
    deps.counters().throttledRequests++;
    const retry = Math.max(1, Math.min(5, Math.ceil((queue.queuedRows / deps.queueRows) * 5)));
    throw new AppError('rate_limited', 'queue_full', 'ingest queue is full; retry later', retry);
  };
  return {
    async otlp(project, format, body) {
      admit();
      const result = await onPool(() =>
        deps.pool.runJob(PREPARE_METRICS_JOB, {
          format,
          body,
          projectId: project.id,
          stagingDir: deps.stagingDir,
          dropAttrs: deps.dropAttrs,
        }),
      );
      const steps = result.pending?.steps;
      const keys = steps ? new Set(steps.map((s) => s.key)) : null;
      const journal: StateJournal = new Map();
      return ingestRows(
        project,
        {
          lock: async () => (keys ? deps.state.lockSeries(keys) : null),
          run: () => finishPrepared(result.staged, result.pending, deps.state, journal),
          restore: () => deps.state.restore(journal),
        },
        result,
      );
    },
    async prometheus(project, body) {
      admit();
      // Decoded on a worker into columns (promWriteWire.ts); typed, stepped and made rows here.
      // The body is moved to the worker (PreparePool.run), which hands it back with the columns.
      const decode = (from: Uint8Array, full: boolean) =>
        onPool(() =>
          deps.pool.runJob(PREPARE_PROM_JOB, {
            body: from,
            projectId: project.id,
            dropAttrs: deps.dropAttrs,
            maxBytes: deps.maxBodyBytes,
            full,
          }),
        );
      let cols = await decode(body, false);
      // A worker sends a series' text once; a series this state has dropped since needs it again.
      if (!prom.knows(cols)) cols = await decode(cols.body ?? body, true);
      const plan = prom.plan(cols, project.id);
      const undo = promUndo();
      return ingestRows(
        project,
        {
          lock: async () => (plan.counters.length > 0 ? prom.lock(plan) : null),
          run: () => prom.rows(cols, plan, undo),
          restore: () => prom.restore(undo),
        },
        { metrics: plan.metrics, rejected: cols.rejected, errors: cols.errors },
      );
    },
  };

  /** Runs a job on the pool: a full pool is a 429, a refused body a 4xx (counted). */
  async function onPool<R extends { ok: true } | { ok: false; type: AppErrorType; code: string; message: string }>(
    run: () => Promise<R>,
  ): Promise<Extract<R, { ok: true }>> {
    let result: R;
    try {
      result = await run();
    } catch (err) {
      if (!(err instanceof QueueFullError)) throw err;
      deps.counters().throttledRequests++;
      throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
    }
    if (!result.ok) {
      deps.counters().rejectedRequests++;
      throw new AppError(result.type, result.code, result.message);
    }
    return result as Extract<R, { ok: true }>;
  }

  /**
   * Runs a request's cumulative-to-delta steps (`steps.run`), commits the rows, then records the
   * catalogue. The steps' series stay locked (`steps.lock`) until the commit settles, and a
   * refused or failed commit restores the state the steps replaced: the state only moves for rows
   * that are stored (CumulativeState).
   */
  async function ingestRows(
    project: ProjectConfig,
    steps: {
      lock(): Promise<(() => void) | null>;
      run(): { chunks: StagedDatapoints[]; rows: number; bytes: number };
      restore(): void;
    },
    prepared: { metrics: MetricInfo[]; rejected: number; errors: string[] },
  ): Promise<PartialSuccess | null> {
    const counters = deps.counters();
    const { rejected, errors } = prepared;
    counters.rejectedRows += rejected;
    const unlock = await steps.lock();
    let rows = 0;
    try {
      const finished = steps.run();
      rows = finished.rows;
      await commit(deps.batcher, finished.chunks, rows, finished.bytes);
    } catch (err) {
      steps.restore();
      if (err instanceof AppError && err.type === 'rate_limited') {
        counters.throttledRequests++;
        counters.throttledRows += rows;
      } else counters.failedRows += rows;
      throw err;
    } finally {
      unlock?.();
    }
    counters.acceptedRows += rows;
    // The catalogue after the commit, so a refused request writes nothing at all. Its failure is
    // not the client's (the datapoints are stored; a retry would count them twice): it is logged,
    // and the entries are written again with the next request of those metrics.
    const fresh = await deps.catalog.record(project.id, prepared.metrics).catch((err: unknown) => {
      deps.log.error({ err, projectId: project.id }, 'metric catalogue write failed');
      return [];
    });
    if (fresh.length) deps.onNewMetrics?.(project.id, fresh);
    return rejected ? { rejected, message: errors.join('; ') } : null;
  }
}

/**
 * Waits for the commit of the batch holding `chunks`; queue and storage failures become
 * AppErrors. Chunks the batcher refused are unstaged here (a failed write removed its own).
 */
async function commit(
  batcher: DatapointBatcher,
  chunks: StagedDatapoints[],
  rows: number,
  bytes: number,
): Promise<void> {
  try {
    await batcher.submit(chunks, bytes, rows);
  } catch (err) {
    await unstageDatapoints(chunks);
    if (err instanceof QueueFullError) throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
    if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
    // A failed write: the client must retry; nothing is reported as stored.
    throw new AppError(
      'unavailable',
      'storage_unavailable',
      `datapoints could not be stored: ${(err as Error).message}`,
      1,
    );
  }
}
