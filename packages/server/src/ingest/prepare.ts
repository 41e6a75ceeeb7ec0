import { AppError, type AppErrorType } from '../http/appError';
import { encodeSpans } from '../storage/telemetry/spanRowEncoding';
import { compileSpanMetrics, spanMetricPoints, type SpanMetricDefinition } from '../metricsFromSpans';
import { stageSpans, type StagedSpans } from '../storage/telemetry/spanStaging';
import { produceOtlpLogs } from './logsIngest';
import { storable } from './storableRows';
import { OtlpDecodeError } from './otlp';
import type { BodyFormat } from './requestBody';
import type { ProjectOptions, Produced } from './produced';
import { produceOtlpTraces } from './tracesIngest';
import { produceVector, produceZipkin } from './zipkinVectorIngest';

/**
 * The CPU-heavy part of every ingest path, from decoded request body to rows staged for storage:
 * decode, normalise, check the per-request row cap, encode, stage (a large chunk is written to the
 * store's staging directory, see spanStaging.ts), and fold the rows into the metrics derived from
 * spans (metricsFromSpans/spanMetricPoints.ts), which travel with the staged chunk to the batch's write.
 * Synchronous, so it runs the same in a worker thread (see preparePool.ts) or inline.
 */
export type PrepareKind = 'otlp_traces' | 'otlp_logs' | 'zipkin' | 'vector';

export interface PrepareTask {
  kind: PrepareKind;
  format: BodyFormat;
  body: Uint8Array;
  project: ProjectOptions;
  /** Receive time in Unix nanoseconds (decimal), for records without a timestamp. */
  nowNs: string;
  maxRows: number;
  /** Where large encoded chunks are written (TelemetryStore.stagingDir; null: all kept in memory). */
  stagingDir: string | null;
  /** `metrics_from_spans`: the rows are folded into their datapoints here, beside the encoding (absent: none). */
  spanMetrics?: readonly SpanMetricDefinition[];
}

/** What a path's decode + normalise step yields. */
const PRODUCERS: Record<
  PrepareKind,
  (body: Buffer, format: BodyFormat, project: ProjectOptions, now: bigint) => Produced
> = {
  otlp_traces: (body, format, project) => produceOtlpTraces(body, format, project),
  otlp_logs: produceOtlpLogs,
  zipkin: (body, _format, project, now) => produceZipkin(body, project, now),
  vector: (body, _format, project, now) => produceVector(body, project, now),
};

/**
 * Bad input comes back as a value rather than a thrown error, so it survives the trip between
 * threads with its type and code. `rows` on a failure is how many rows were refused (0 when the
 * body could not be read at all).
 */
export type PrepareResult =
  | { ok: true; staged: StagedSpans | null; rejected: number; rejectedMessage: string }
  | { ok: false; type: AppErrorType; code: string; message: string; rows: number };

export function prepare(task: PrepareTask): PrepareResult {
  let produced: Produced;
  try {
    const body = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    produced = PRODUCERS[task.kind](body, task.format, task.project, BigInt(task.nowNs));
  } catch (err) {
    if (err instanceof OtlpDecodeError)
      return { ok: false, type: 'invalid_input', code: 'invalid_otlp', message: err.message, rows: 0 };
    if (err instanceof AppError) return { ok: false, type: err.type, code: err.code, message: err.message, rows: 0 };
    throw err;
  }
  const { rows, rejected, rejectedMessage } = storable(produced);
  if (rows.length > task.maxRows) {
    // Refused whole rather than cut: a partial write the client cannot see is worse.
    const message = `the request holds ${rows.length} rows; at most ${task.maxRows} are taken per request (send smaller batches; in the OpenTelemetry Collector, set the batch processor's send_batch_max_size)`;
    return { ok: false, type: 'too_large', code: 'too_many_rows', message, rows: rows.length };
  }
  if (rows.length === 0) return { ok: true, staged: null, rejected, rejectedMessage };
  const staged = stageSpans(task.stagingDir, encodeSpans(rows));
  if (task.spanMetrics?.length) staged.points = spanMetricPoints(compileSpanMetrics(task.spanMetrics), rows);
  return { ok: true, staged, rejected, rejectedMessage };
}
