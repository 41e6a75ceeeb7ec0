import type { ProjectConfig } from '../config';
import type { SpanMetricDefinition } from '../metricsFromSpans';
import { AppError } from '../http/appError';
import { unstageSpans, type StagedSpans } from '../storage/telemetry/spanStaging';
import { BatcherClosedError, QueueFullError, type Batcher } from './batcher';
import type { IngestSignal, IngestStats } from './ingestStats';
import type { PartialSuccess } from './otlpResponse';
import type { PrepareKind } from './prepare';
import type { PreparePool } from './preparePool';
import type { BodyFormat } from './requestBody';

/**
 * The transport-independent end of every ingest path (OTLP traces and logs over HTTP and gRPC,
 * Zipkin, Vector): decode, normalise, cap and encode on the prepare pool, then wait for the batch
 * holding the rows to be committed. Success is answered only after commit; records dropped as
 * invalid come back as a partial success. Every outcome is counted.
 */

/** Span rows (spans, events, logs) wait for their batch encoded and staged for storage. */
export type SpanBatcher = Batcher<StagedSpans>;

/** One signal's ingest: the project it writes to, the body format and the decoded body bytes. */
export type SignalIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

export interface IngestPipeline {
  run(
    signal: IngestSignal,
    kind: PrepareKind,
    project: ProjectConfig,
    format: BodyFormat,
    body: Buffer,
  ): Promise<PartialSuccess | null>;
  /** Counts a request refused before decoding (bad auth, content type, encoding, size). */
  refused(signal: IngestSignal): void;
}

export interface PipelineDeps {
  batcher: SpanBatcher;
  pool: PreparePool;
  stats: IngestStats;
  maxRowsPerRequest: number;
  /** The batcher's queue limits, to refuse before any decoding when it is already full. */
  queueRows: number;
  queueBytes: number;
  /** Where prepare stages encoded rows (TelemetryStore.stagingDir). */
  stagingDir: string | null;
  /** `metrics_from_spans`, folded per request by prepare. */
  spanMetrics: readonly SpanMetricDefinition[];
}

export function createIngestPipeline(deps: PipelineDeps): IngestPipeline {
  const { batcher, pool, stats } = deps;
  const queue = batcher.stats;
  return {
    refused(signal) {
      stats.signal(signal).rejectedRequests++;
    },
    async run(signal, kind, project, format, body) {
      const counters = stats.signal(signal);
      // Admission before any work: under overload, decoding and normalising requests only to
      // refuse them at the queue would spend the CPU the queue needs to drain (measured: with
      // this check the accepted rate under 3x overload stays near the sustainable rate).
      if (queue.queuedRows >= deps.queueRows || queue.queuedBytes >= deps.queueBytes) {
        counters.throttledRequests++;
        throw new AppError(
          'rate_limited',
          'queue_full',
          'ingest queue is full; retry later',
          retryAfterSec(queue.queuedRows, deps.queueRows),
        );
      }
      const result = await throttled(
        () =>
          pool.run({
            kind,
            format,
            body,
            project: {
              projectId: project.id,
              groupByEnv: project.group_by_env,
              groupFuncsByService: project.group_funcs_by_service,
            },
            nowNs: (BigInt(Date.now()) * 1_000_000n).toString(),
            maxRows: deps.maxRowsPerRequest,
            stagingDir: deps.stagingDir,
            spanMetrics: deps.spanMetrics,
          }),
        () => counters.rejectedRequests++,
      );
      if (!result.ok) {
        if (result.rows > 0) counters.rejectedRows += result.rows;
        else counters.rejectedRequests++;
        throw new AppError(result.type, result.code, result.message);
      }
      counters.rejectedRows += result.rejected;
      const { staged } = result;
      if (staged) {
        try {
          await throttled(
            () => batcher.submit([staged], staged.indexBytes + staged.dataBytes, staged.rows),
            () => (counters.throttledRows += staged.rows),
          );
        } catch (err) {
          // Refused by the queue (the files are still ours) or a failed write (already removed).
          await unstageSpans([staged]);
          if (err instanceof AppError) throw err;
          counters.failedRows += staged.rows;
          if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
          // A failed write: the client must retry; nothing is reported as stored.
          throw new AppError(
            'unavailable',
            'storage_unavailable',
            `rows could not be stored: ${(err as Error).message}`,
            1,
          );
        }
        counters.acceptedRows += staged.rows;
      }
      return result.rejected > 0 ? { rejected: result.rejected, message: result.rejectedMessage } : null;
    },
  };
}

/** QueueFullError -> 429 / RESOURCE_EXHAUSTED with Retry-After, counted by `onThrottled`. */
async function throttled<T>(fn: () => Promise<T>, onThrottled: () => void): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof QueueFullError)) throw err;
    onThrottled();
    throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
  }
}

/** Seconds a refused client should wait: longer the fuller the queue, 1 to 5. */
function retryAfterSec(queuedRows: number, queueRows: number): number {
  return Math.max(1, Math.min(5, Math.ceil((queuedRows / queueRows) * 5)));
}
