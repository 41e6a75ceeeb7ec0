import type { ProjectConfig } from '../../config';
import { AppError } from '../../http/appError';
import { Batcher } from '../../ingest';
import type { BatcherOptions } from '../../ingest/batcher';
import { OtlpDecodeError } from '../../ingest/otlp';
import { parseJsonBody, type BodyFormat } from '../../ingest/requestBody';
import { commit } from '../../ingest/tracesIngest';
import type { SpanRow } from '../../ingest/spanRow';
import type { MetricsCatalogWriter } from './catalog';
import type { CumulativeState } from './cumulativeState';
import { normalizeMetrics, type DatapointRow } from './normalizeMetrics';
import { decodeMetricsJson, decodeMetricsProto, type MetricsPartialSuccess } from './otlpMetricsProto';

/**
 * The transport-independent part of metrics ingest (OTLP/HTTP and OTLP/gRPC): decode, map to
 * datapoint rows, record the catalogue, then wait for the group commit of the rows. Same contract
 * as trace ingest: success only after the rows are committed; a full queue is a 429.
 */
export type MetricsIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<MetricsPartialSuccess | null>;

/**
 * The shared Batcher is typed for span rows; it only counts and forwards rows, so datapoint rows
 * pass through it unchanged. The casts live here and nowhere else.
 */
export function createDatapointBatcher(opts: Omit<BatcherOptions, 'write'> & { write(rows: DatapointRow[]): Promise<void> }): Batcher {
  return new Batcher({ ...opts, write: (rows: SpanRow[]) => opts.write(rows as unknown as DatapointRow[]) });
}

export function createMetricsIngest(deps: {
  batcher: Batcher;
  state: CumulativeState;
  catalog: MetricsCatalogWriter;
  onNewMetrics?(projectId: number, names: string[]): void;
}): MetricsIngest {
  return async (project, format, body) => {
    let request;
    try {
      request = format === 'protobuf' ? decodeMetricsProto(body) : decodeMetricsJson(parseJsonBody(body));
    } catch (err) {
      if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', 'invalid_otlp', err.message);
      throw err;
    }
    const { rows, metrics, rejected, errors } = normalizeMetrics(request, project.id, deps.state);
    // The catalogue first: a metric's datapoints are never visible without its description.
    const fresh = await deps.catalog.record(project.id, metrics).catch((err: unknown) => {
      throw new AppError('unavailable', 'storage_unavailable', `metrics could not be stored: ${(err as Error).message}`, 1);
    });
    await commit(deps.batcher, rows as unknown as SpanRow[], body.length);
    if (fresh.length) deps.onNewMetrics?.(project.id, fresh);
    return rejected ? { rejected, message: errors.join('; ') } : null;
  };
}
