import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import { BatcherClosedError, QueueFullError, type Batcher } from './batcher';
import type { IngestSignal, IngestStats } from './ingestStats';
import { OtlpDecodeError } from './otlp';
import type { PartialSuccess } from './otlpResponse';
import type { BodyFormat } from './requestBody';
import type { AttrMap, AttrValue, SpanRow } from './spanRow';

/**
 * The transport-independent end of every ingest path (OTLP traces and logs over HTTP and gRPC,
 * Zipkin, Vector): decode + normalise (the `produce` step), check the per-request row cap, then
 * wait for the batch holding the rows to be committed. Success is answered only after commit;
 * records dropped as invalid come back as a partial success. Every outcome is counted.
 */
export interface Produced {
  rows: SpanRow[];
  /** Records dropped as invalid (not stored), for OTLP partial_success. */
  rejected: number;
  rejectedMessage: string;
}

/** One signal's ingest: the project it writes to, the body format and the decoded body bytes. */
export type SignalIngest = (project: ProjectConfig, format: BodyFormat, body: Buffer) => Promise<PartialSuccess | null>;

export interface IngestPipeline {
  run(signal: IngestSignal, bytes: number, produce: () => Produced): Promise<PartialSuccess | null>;
  /** Counts a request refused before decoding (bad auth, content type, encoding, size). */
  refused(signal: IngestSignal): void;
}

export interface PipelineDeps {
  batcher: Batcher;
  stats: IngestStats;
  maxRowsPerRequest: number;
  /** The batcher's queue limits, to refuse before decoding when it is already full. */
  queueRows: number;
  queueBytes: number;
}

export function createIngestPipeline(deps: PipelineDeps): IngestPipeline {
  const { batcher, stats } = deps;
  const queue = batcher.stats;
  return {
    refused(signal) {
      stats.signal(signal).rejectedRequests++;
    },
    async run(signal, bytes, produce) {
      const counters = stats.signal(signal);
      // Admission before any work: under overload, decoding and normalising requests only to
      // refuse them at the queue would spend the CPU the queue needs to drain.
      if (queue.queuedRows > 0 && (queue.queuedRows >= deps.queueRows || queue.queuedBytes + bytes > deps.queueBytes)) {
        counters.throttledRequests++;
        throw new AppError('rate_limited', 'queue_full', 'ingest queue is full; retry later', retryAfterSec(queue.queuedRows, deps));
      }
      let produced: Produced;
      try {
        produced = produce();
      } catch (err) {
        counters.rejectedRequests++;
        if (err instanceof OtlpDecodeError) throw new AppError('invalid_input', 'invalid_otlp', err.message);
        throw err;
      }
      const { rows, rejected, rejectedMessage } = storable(produced);
      counters.rejectedRows += rejected;
      if (rows.length > deps.maxRowsPerRequest) {
        counters.rejectedRows += rows.length;
        // Refused whole rather than cut: a partial write the client cannot see is worse.
        throw new AppError('too_large', 'too_many_rows', `the request holds ${rows.length} rows; at most ${deps.maxRowsPerRequest} are taken per request (send smaller batches)`);
      }
      try {
        await batcher.submit(rows, bytes);
      } catch (err) {
        if (err instanceof QueueFullError) {
          counters.throttledRows += rows.length;
          throw new AppError('rate_limited', 'queue_full', err.message, err.retryAfterSec);
        }
        counters.failedRows += rows.length;
        if (err instanceof BatcherClosedError) throw new AppError('unavailable', 'shutting_down', err.message, 5);
        // A failed write: the client must retry; nothing is reported as stored.
        throw new AppError('unavailable', 'storage_unavailable', `rows could not be stored: ${(err as Error).message}`, 1);
      }
      counters.acceptedRows += rows.length;
      return rejected > 0 ? { rejected, message: rejectedMessage } : null;
    },
  };
}

/**
 * Time and duration bounds every stored row must meet. A row outside them (a start time of 0 or in
 * the year 30000, a duration of 10^150 ns) cannot be written, and since a batch is written whole
 * it would fail every other client's rows in the same batch: such rows are dropped here and
 * reported like any other rejected record. (Times before 2001-09-09, under 10 digits of seconds,
 * are not even read as times by the engine; no retention keeps rows that old anyway.)
 */
export const MIN_TIME_NS = 1_000_000_000n * 1_000_000_000n;
export const MAX_TIME_NS = BigInt(Date.UTC(2200, 0, 1)) * 1_000_000n;
export const MAX_DURATION_NS = 100 * 365 * 86_400 * 1e9;

export function storable(p: Produced): Produced {
  let bad = 0;
  for (const r of p.rows) {
    if (!rowFits(r)) bad++;
    else wellFormRow(r);
  }
  if (bad === 0) return p;
  return {
    rows: p.rows.filter(rowFits),
    rejected: p.rejected + bad,
    rejectedMessage: p.rejectedMessage || `${bad} row(s) dropped: time before 2001-09-09 or after 2200-01-01, or duration over 100 years`,
  };
}

function rowFits(r: SpanRow): boolean {
  return r.timeNs >= MIN_TIME_NS && r.timeNs < MAX_TIME_NS && Number.isFinite(r.durationNs) && r.durationNs >= 0 && r.durationNs <= MAX_DURATION_NS;
}

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const wf = (s: string): string => ((s as unknown as WellFormed).isWellFormed() ? s : (s as unknown as WellFormed).toWellFormed());

/**
 * Lone UTF-16 surrogates (from JSON `"\ud800"` or invalid UTF-8 in protobuf strings) cannot be
 * stored either; they become U+FFFD, in every string of the row, keys included.
 */
function wellFormRow(r: SpanRow): void {
  r.name = wf(r.name);
  r.eventName = wf(r.eventName);
  r.displayName = wf(r.displayName);
  r.statusMessage = wf(r.statusMessage);
  r.system = wf(r.system);
  r.type = wf(r.type);
  r.attrs = wellFormMap(r.attrs);
  for (const e of r.events) {
    e.name = wf(e.name);
    e.attrs = wellFormMap(e.attrs);
  }
  for (const l of r.links) l.attrs = wellFormMap(l.attrs);
}

function wellFormMap(m: AttrMap): AttrMap {
  let out: AttrMap | undefined;
  for (const key in m) {
    const v = m[key];
    const k2 = wf(key);
    const v2 = wellFormValue(v);
    if (k2 !== key || v2 !== v) {
      out ??= { ...m };
      if (k2 !== key) delete out[key];
      out[k2] = v2;
    }
  }
  return out ?? m;
}

function wellFormValue(v: AttrValue): AttrValue {
  if (typeof v === 'string') return wf(v);
  if (Array.isArray(v)) {
    let out: AttrValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = wellFormValue(v[i]);
      if (e !== v[i]) (out ??= [...v])[i] = e;
    }
    return out ?? v;
  }
  if (v !== null && typeof v === 'object') return wellFormMap(v);
  return v;
}

/** Rough seconds to drain what is queued, at least 1 (the batcher's own estimate is similar). */
function retryAfterSec(queuedRows: number, limits: { queueRows: number }): number {
  return Math.max(1, Math.min(30, Math.ceil((queuedRows / limits.queueRows) * 5)));
}
