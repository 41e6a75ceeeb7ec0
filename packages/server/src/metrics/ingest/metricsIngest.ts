import type { IngestSignalStats } from '@lantern/shared';
import type { ProjectConfig } from '../../config';
import { AppError } from '../../http/appError';
import {
  BatcherClosedError,
  OtlpDecodeError,
  parseJsonBody,
  QueueFullError,
  type Batcher,
  type BodyFormat,
  type PartialSuccess,
} from '../../ingest';
import type { MetricsCatalogWriter } from './catalog';
import type { CumulativeState } from './cumulativeState';
import { normalizeMetrics, type DatapointRow } from './normalizeMetrics';
import { decodeMetricsJson, decodeMetricsProto, type PbMetricsRequest } from './otlpMetricsProto';
import { decodePromWrite, PromWriteMapper } from './promRemoteWrite';

/**
 * The transport-independent part of metrics ingest (OTLP/HTTP, OTLP/gRPC and Prometheus remote write): decode, map to
 * datapoint rows, wait for the group commit of the rows, then record the catalogue. Same contract
 * as trace ingest: success only after the rows are committed; a full queue is a 429.
 */
export type MetricsIngest = (
  project: ProjectConfig,
  format: BodyFormat,
  body: Buffer,
) => Promise<PartialSuccess | null>;

/**
 * Prometheus remote write (promRemoteWrite.ts): the snappy body in, the same mapping and commit;
 * `rejected` counts the samples that could not be stored (the rest is stored).
 */
export type PromWriteIngest = (project: ProjectConfig, body: Buffer) => Promise<PartialSuccess | null>;

export function createMetricsIngest(deps: {
  batcher: Batcher<DatapointRow>;
  state: CumulativeState;
  catalog: MetricsCatalogWriter;
  onNewMetrics?(projectId: number, names: string[]): void;
  log: { error(obj: object, msg: string): void };
  /** The `metrics` counters of ingest's self-telemetry (GET /api/v1/internal/stats). */
  counters(): IngestSignalStats;
  /** Largest remote write body after decompression. */
  maxBodyBytes: number;
}): { otlp: MetricsIngest; prometheus: PromWriteIngest } {
  const decodeOrRefuse = async <T>(decode: () => T | Promise<T>, code: string): Promise<T> => {
    try {
      return await decode();
    } catch (err) {
      deps.counters().rejectedRequests++;
      if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', code, err.message);
      throw err;
    }
  };
  const prom = new PromWriteMapper();
  return {
    otlp: async (project, format, body) =>
      ingestRequest(
        project,
        await decodeOrRefuse(
          () => (format === 'protobuf' ? decodeMetricsProto(body) : decodeMetricsJson(parseJsonBody(body))),
          'invalid_otlp',
        ),
        body.length,
      ),
    prometheus: async (project, body) => {
      const mapped = prom.map(
        await decodeOrRefuse(() => decodePromWrite(body, deps.maxBodyBytes), 'invalid_remote_write'),
        project.id,
      );
      return ingestRequest(project, mapped.request, body.length, mapped);
    },
  };

  /** Maps an OTLP request to rows, commits them, then records the catalogue. */
  async function ingestRequest(
    project: ProjectConfig,
    request: PbMetricsRequest,
    bytes: number,
    earlier?: { rejected: number; errors: string[] },
  ): Promise<PartialSuccess | null> {
    const counters = deps.counters();
    const normalized = normalizeMetrics(request, project.id, deps.state);
    const { rows, metrics } = normalized;
    const rejected = normalized.rejected + (earlier?.rejected ?? 0);
    const errors = [...(earlier?.errors ?? []), ...normalized.errors];
    counters.rejectedRows += rejected;
    try {
      await commit(deps.batcher, rows, bytes);
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
  }
}

/** Waits for the commit of the batch holding `rows`; queue and storage failures become AppErrors. */
async function commit(batcher: Batcher<DatapointRow>, rows: DatapointRow[], bytes: number): Promise<void> {
  try {
    await batcher.submit(rows, bytes);
  } catch (err) {
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
