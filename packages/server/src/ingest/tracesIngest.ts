import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import { BatcherClosedError, QueueFullError, type Batcher } from './batcher';
import { normalizeTraces } from './normalize';
import { decodeTracesJson, decodeTracesProto, OtlpDecodeError } from './otlp';
import type { PartialSuccess } from './otlpResponse';
import { parseJsonBody, type BodyFormat } from './requestBody';
import type { SpanRow } from './spanRow';
import { encodeSpans, type EncodedSpans } from '../storage/telemetry/spanRowEncoding';

/** Span rows wait for their batch already encoded for storage (encoding overlaps the previous insert). */
export type SpanBatcher = Batcher<EncodedSpans>;

/**
 * The transport-independent part of trace ingest, shared by OTLP/HTTP and OTLP/gRPC:
 * decode, normalise, then wait for the batch holding the rows to be committed.
 */
export type TraceIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

export function createTraceIngest(batcher: SpanBatcher): TraceIngest {
  return async (project, format, body) => {
    let request;
    try {
      request = format === 'protobuf' ? decodeTracesProto(body) : decodeTracesJson(parseJsonBody(body));
    } catch (err) {
      if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', 'invalid_otlp', err.message);
      throw err;
    }
    const rows = normalizeTraces(request, {
      projectId: project.id,
      groupByEnv: project.group_by_env,
      groupFuncsByService: project.group_funcs_by_service,
    });
    await commitSpans(batcher, rows);
    return null;
  };
}

/** Encodes span rows (spans, events, logs) and waits until their batch is committed. */
export function commitSpans(batcher: SpanBatcher, rows: SpanRow[]): Promise<void> {
  const encoded = encodeSpans(rows);
  return commit(batcher, [encoded], encoded.index.length + encoded.data.length, encoded.rows);
}

export async function commit<T>(batcher: Batcher<T>, items: T[], bytes: number, rows = items.length): Promise<void> {
  try {
    await batcher.submit(items, bytes, rows);
  } catch (err) {
    if (err instanceof QueueFullError) {
      throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
    }
    if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
    // A failed write: the client must retry; nothing is reported as stored.
    throw new AppError('unavailable', 'storage_unavailable', `rows could not be stored: ${(err as Error).message}`, 1);
  }
}
