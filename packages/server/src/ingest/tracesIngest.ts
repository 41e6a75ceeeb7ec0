import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import type { EncodedSpans } from '../storage/telemetry/spanRowEncoding';
import { BatcherClosedError, QueueFullError, type Batcher } from './batcher';
import type { PartialSuccess } from './otlpResponse';
import type { PreparePool } from './preparePool';
import type { BodyFormat } from './requestBody';

/**
 * The transport-independent part of trace ingest, shared by OTLP/HTTP and OTLP/gRPC:
 * decode, normalise and encode (on the prepare pool), then wait for the batch holding the rows
 * to be committed.
 */
export type TraceIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

/** Span rows wait for their batch already encoded for storage (encoding overlaps the previous insert). */
export type SpanBatcher = Batcher<EncodedSpans>;

export function createTraceIngest(deps: { batcher: SpanBatcher; pool: PreparePool }): TraceIngest {
  return async (project, format, body) => {
    const encoded = await throttled(() =>
      deps.pool.run({
        signal: 'traces',
        format,
        body,
        project: { projectId: project.id, groupByEnv: project.group_by_env, groupFuncsByService: project.group_funcs_by_service },
      }),
    );
    await commit(deps.batcher, [encoded], encoded.index.length + encoded.data.length, encoded.rows);
    return null;
  };
}

export async function commit<T>(batcher: Batcher<T>, items: T[], bytes: number, rows = items.length): Promise<void> {
  try {
    await throttled(() => batcher.submit(items, bytes, rows));
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
    // A failed write: the client must retry; nothing is reported as stored.
    throw new AppError('unavailable', 'storage_unavailable', `rows could not be stored: ${(err as Error).message}`, 1);
  }
}

/** QueueFullError -> 429 / RESOURCE_EXHAUSTED with Retry-After. */
async function throttled<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof QueueFullError) throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
    throw err;
  }
}
