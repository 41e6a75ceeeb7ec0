import { AppError, type AppErrorType } from '../../http/appError';
import { OtlpDecodeError, parseJsonBody, type BodyFormat, type PoolJob } from '../../ingest';
import { workerModule } from '../../paths';
import {
  datapointHead,
  datapointTail,
  datapointValues,
  stageDatapoints,
  type StagedDatapoints,
} from '../../storage/telemetry';
import type { CumulativeState, StateJournal } from './cumulativeState';
import type { DatapointSink, MetricInfo, RowBase, RowValues, StatefulStep } from './datapointRows';
import { normalizeMetrics, resolveStep } from './normalizeMetrics';
import { decodeMetricsJson, type PbMetricsRequest } from './otlpMetricsProto';
import { decodeMetricsWire } from './otlpMetricsWire';

/**
 * The CPU-heavy part of OTLP metrics ingest, run on the ingest prepare pool's worker threads
 * (ingest/preparePool.ts, `runJob`): decode, map to datapoint rows, encode them as TSV and stage
 * them for the insert (a large chunk to a file in the store's staging directory; only its name
 * comes back to the main thread).
 *
 * The cumulative-to-delta state stays on the main thread, where requests arrive (one state, so
 * a series is consistent whichever worker mapped its points): a point that needs it (cumulative
 * counter or histogram, delta up-down counter) comes back as a compact step plus the encoded
 * rest of its row, and `finishPrepared` runs the steps and completes those lines, which is a map
 * lookup and a string concatenation per point. Sharding series to workers by hash was the other
 * way; it needs the main thread to split requests it has not decoded, so this one was taken
 * (docs/architecture.md, "Metrics ingest").
 */
export interface MetricsPrepareTask {
  format: BodyFormat;
  body: Uint8Array;
  projectId: number;
  /** Where a large chunk is written (TelemetryStore.stagingDir; null: kept in memory). */
  stagingDir: string | null;
  /** Attribute keys no series keeps (config `metrics.drop_attrs`). */
  dropAttrs: readonly string[];
}

/** Rows whose values wait for the cumulative state: the two encoded ends of each line and its step. */
export interface PendingRows {
  heads: string[];
  tails: string[];
  steps: StatefulStep[];
  /** Each row's time (Unix seconds): a chunk carries its earliest (StagedDatapoints.minTime). */
  times: number[];
}

/** Bad input comes back as a value, so it crosses threads with its type and code. */
export type MetricsPrepareResult =
  | {
      ok: true;
      staged: StagedDatapoints | null;
      pending: PendingRows | null;
      metrics: MetricInfo[];
      rejected: number;
      errors: string[];
    }
  | { ok: false; type: AppErrorType; code: string; message: string };

export default function prepareMetrics(task: MetricsPrepareTask): MetricsPrepareResult {
  let request: PbMetricsRequest;
  try {
    const body = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    request = task.format === 'protobuf' ? decodeMetricsWire(body) : decodeMetricsJson(parseJsonBody(body));
  } catch (err) {
    if (err instanceof OtlpDecodeError)
      return { ok: false, type: 'invalid_input', code: 'invalid_otlp', message: err.message };
    if (err instanceof AppError) return { ok: false, type: err.type, code: err.code, message: err.message };
    throw err;
  }
  return { ok: true, ...encodeRequest(request, task.projectId, task.stagingDir, task.dropAttrs) };
}

/** Maps a decoded request and stages its rows (the part of prepareMetrics after the decode; also run inline). */
export function encodeRequest(
  request: PbMetricsRequest,
  projectId: number,
  stagingDir: string | null,
  dropAttrs: readonly string[],
) {
  const sink = new EncodingSink();
  const { metrics, rejected, errors } = normalizeMetrics(request, projectId, sink, dropAttrs);
  const staged = sink.rows > 0 ? stageDatapoints(stagingDir, sink.text, sink.rows, undefined, sink.minTime) : null;
  const pending = sink.pending.steps.length > 0 ? sink.pending : null;
  return { staged, pending, metrics, rejected, errors };
}

/** The job for `PreparePool.runJob`. */
export const PREPARE_METRICS_JOB: PoolJob<MetricsPrepareTask, MetricsPrepareResult> = {
  filename: workerModule('metrics/ingest/prepareMetrics.ts'),
  run: prepareMetrics,
};

/**
 * On the thread holding the state: runs the pending steps and returns the prepared rows as
 * chunks for the batcher (the completed lines in memory). `dropped` counts points the steps
 * dropped (first point of a series, out of order, changed bucket layout). The state entries the
 * steps replace go to `journal`, so a refused commit can take them back (CumulativeState.restore).
 */
export function finishPrepared(
  staged: StagedDatapoints | null,
  pending: PendingRows | null,
  state: CumulativeState,
  journal?: StateJournal,
): { chunks: StagedDatapoints[]; rows: number; bytes: number } {
  const chunks = staged ? [staged] : [];
  if (pending) {
    let text = '';
    let rows = 0;
    let minTime = Infinity;
    for (let i = 0; i < pending.steps.length; i++) {
      const v = resolveStep(pending.steps[i], state, journal);
      if (v === null) continue;
      text += pending.heads[i] + encodeValues(v) + pending.tails[i];
      rows++;
      if (pending.times[i] < minTime) minTime = pending.times[i];
    }
    if (rows > 0) chunks.push(stageDatapoints(null, text, rows, undefined, minTime));
  }
  return {
    chunks,
    rows: chunks.reduce((n, c) => n + c.rows, 0),
    bytes: chunks.reduce((n, c) => n + c.bytes, 0),
  };
}

const encodeValues = (v: RowValues) => datapointValues(v.min, v.max, v.sum, v.count, v.gauge, v.histogram);

/** Encodes rows as they are mapped; a series' attributes are encoded once (by its hash). */
class EncodingSink implements DatapointSink {
  text = '';
  rows = 0;
  minTime = Infinity;
  readonly pending: PendingRows = { heads: [], tails: [], steps: [], times: [] };

  row(base: RowBase, values: RowValues): void {
    this.text += head(base) + encodeValues(values) + tail(base);
    this.rows++;
    if (base.time < this.minTime) this.minTime = base.time;
  }

  stateful(base: RowBase, step: StatefulStep): void {
    this.pending.heads.push(head(base));
    this.pending.tails.push(tail(base));
    this.pending.steps.push(step);
    this.pending.times.push(base.time);
  }
}

const head = (b: RowBase) => datapointHead(b.projectId, b.metric, b.time, b.hash, b.instrument);

/** The attributes' text per series hash (the hash is over the same keys and values). Bounded. */
const TAIL_MEMO_MAX = 100_000;
const tailMemo = new Map<string, string>();
function tail(b: RowBase): string {
  let t = tailMemo.get(b.hash);
  if (t === undefined) {
    t = datapointTail(b.keys, b.vals);
    if (tailMemo.size >= TAIL_MEMO_MAX) tailMemo.clear();
    tailMemo.set(b.hash, t);
  }
  return t;
}
