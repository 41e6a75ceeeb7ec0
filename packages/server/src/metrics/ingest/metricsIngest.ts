import type { IngestSignalStats } from '@lantern/shared';
import type { ProjectConfig } from '../../config';
import { AppError } from '../../http/appError';
import { BatcherClosedError, QueueFullError, type Batcher } from '../../ingest/batcher';
import { OtlpDecodeError } from '../../ingest/otlp';
import type { PartialSuccess } from '../../ingest/otlpResponse';
import { parseJsonBody, type BodyFormat } from '../../ingest/requestBody';
import type { MetricsCatalogWriter } from './catalog';
import type { CumulativeState } from './cumulativeState';
import { normalizeMetrics, type DatapointRow } from './normalizeMetrics';
import { decodeMetricsJson, decodeMetricsProto } from './otlpMetricsProto';

/**
 * The transport-independent part of metrics ingest (OTLP/HTTP and OTLP/gRPC): decode, map to
 * datapoint rows, wait for the group commit of the rows, then record the catalogue. Same contract
 * as trace ingest: success only after the rows are committed; a full queue is a 429.
 */
export type MetricsIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

export function createMetricsIngest(deps: {
  batcher: Batcher<DatapointRow>;
  state: CumulativeState;
  catalog: MetricsCatalogWriter;
  onNewMetrics?(projectId: number, names: string[]): void;
  log: { error(obj: object, msg: string): void };
  /** The `metrics` counters of ingest's self-telemetry (GET /api/v1/internal/stats). */
  counters(): IngestSignalStats;
}): MetricsIngest {
  return async (project, format, body) => {
    const counters = deps.counters();
    let request;
    try {
      request = format === 'protobuf' ? decodeMetricsProto(body) : decodeMetricsJson(parseJsonBody(body));
    } catch (err) {
      counters.rejectedRequests++;
      if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', 'invalid_otlp', err.message);
      throw err;
    }
    const { rows, metrics, rejected, errors } = normalizeMetrics(request, project.id, deps.state);
    counters.rejectedRows += rejected;
    try {
      await commit(deps.batcher, rows, body.length);
    } catch (err) {
      if (err instanceof AppError && err.type === 'rate_limited') {
        counters.throttledRequests++;
        counters.throttledRows += rows.length;
      } else counters.failedRows += rows.length;
      throw err;
    }
    counters.acceptedRows += rows.length;
    // The catalogue after the commit, so a refused request writes nothing at all. Its failure is
    // not the client's (the datapoints are stored; a retry would count them twice): it is logged,
    // and the entries are written again with the next request of those metrics.
    const fresh = await deps.catalog.record(project.id, metrics).catch((err: unknown) => {
      deps.log.error({ err, projectId: project.id }, 'metric catalogue write failed');
      return [];
    });
    if (fresh.length) deps.onNewMetrics?.(project.id, fresh);
    return rejected ? { rejected, message: errors.join('; ') } : null;
  };
}

/** Waits for the commit of the batch holding `rows`; queue and storage failures become AppErrors. */
async function commit(batcher: Batcher<DatapointRow>, rows: DatapointRow[], bytes: number): Promise<void> {
  try {
    await batcher.submit(rows, bytes);
  } catch (err) {
    if (err instanceof QueueFullError) throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
    if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
    // A failed write: the client must retry; nothing is reported as stored.
    throw new AppError('unavailable', 'storage_unavailable', `datapoints could not be stored: ${(err as Error).message}`, 1);
  }
}
