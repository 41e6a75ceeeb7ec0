import { AppError, type AppErrorType } from '../../http/appError';
import {
  decodeSnappyBlock,
  OtlpDecodeError,
  snappyBlockLength,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_VARINT,
  WireError,
  WireReader,
  type PoolJob,
} from '../../ingest';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { workerModule } from '../../paths';
import { addSeries, grow, knownScope, labelHash, type LabelTable } from './promKnownSeries';

/**
 * Prometheus remote write's decode, on the ingest prepare pool's worker threads
 * (docs/decisions/metrics-ingest-fold.md, "Remote write on the workers"): the snappy block is
 * inflated and the `prometheus.WriteRequest` read straight from its bytes into compact columns,
 * without protobuf objects or OTLP shapes. A series is known by its label fields' bytes: the
 * first time a worker sees them it builds the series as the OTLP mapping would (its cleaned
 * name, sorted attributes, hash and the attribute arrays' text), and every later request of
 * the series is one Map lookup by those bytes. What depends on state across requests (a metric's
 * type from metadata, a counter's last value and the cumulative-to-delta step) stays on the
 * main thread (promRemoteWrite.ts), fed these columns.
 */
export interface PromPrepareTask {
  body: Uint8Array;
  projectId: number;
  dropAttrs: readonly string[];
  /** Largest body after decompression. */
  maxBytes: number;
  /** Every series' dict text, also of those this worker sent before (the main thread lacked one). */
  full?: boolean;
}

/**
 * One request's samples by column. A sample's `series` indexes the request's series: `ids` holds
 * each one's identity (two uint32 of SHA-1 over project, metric and series hash, so the main thread
 * finds its state by number, without strings), `flags` its labels' flags, and `dict` from
 * `dictAt[s]` to `dictAt[s + 1]` its `hash \x1f <length of name> \x1f name tail` (tail: the
 * attribute arrays' text, no newline) when this worker has not sent it before (else empty): the
 * main thread keeps its entries, and asks again with `full` when it lacks one.
 */
export interface PromColumns {
  ids: Uint32Array;
  /** FLAG_LE: an `le` label; FLAG_QUANTILE: a `quantile` label (promKnownSeries.ts). */
  flags: Uint8Array;
  dict: string;
  dictAt: Int32Array;
  /** Per sample: its series, value, time (Unix ms). */
  series: Int32Array;
  values: Float64Array;
  ms: Float64Array;
  /** Per metric name of the request, its attribute keys (for the catalogue). */
  metricKeys: [string, string[]][];
  metadata: PromMetadata[];
  /** Samples in the request (storable or not). */
  samples: number;
  rejected: number;
  errors: string[];
}

export interface PromMetadata {
  type: number;
  family: string;
  help: string;
  unit: string;
}

export type PromPrepareResult =
  | ({
      ok: true;
      /** The body, handed back by a worker it was moved to (for a decode with `full`). */ body?: Uint8Array;
    } & PromColumns)
  | { ok: false; type: AppErrorType; code: string; message: string };

/** Unix ms bounds of a sample's time: those of the OTLP mapping (normalizeMetrics.ts). */
const MIN_MS = 1e12;
const MAX_MS = Date.UTC(2106, 0, 1);

/** Where a series' samples start and end in the body: reused by every series and request. */
let samplesAt = new Int32Array(64);

export function preparePromWrite(task: PromPrepareTask): PromPrepareResult {
  const body = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
  try {
    const cols = decodePromColumns(inflate(body, task.maxBytes), task.projectId, task.dropAttrs, task.full ?? false);
    return { ok: true, ...cols };
  } catch (err) {
    if (err instanceof OtlpDecodeError)
      return { ok: false, type: 'invalid_input', code: 'invalid_remote_write', message: err.message };
    if (err instanceof AppError) return { ok: false, type: err.type, code: err.code, message: err.message };
    throw err;
  }
}

/**
 * The job on a worker: its columns moved back to the main thread, not cloned, with the body, which
 * the pool moved here (preparePool.ts `movable`) and a decode with `full` needs again.
 */
export default function preparePromWriteMoved(task: PromPrepareTask) {
  const result = preparePromWrite(task);
  if (!result.ok) return result;
  const value: PromPrepareResult = { ...result, body: task.body };
  const columns = [result.ids, result.flags, result.dictAt, result.series, result.values, result.ms];
  const memory = new Set([task.body, ...columns].map((c) => c.buffer).filter((b) => b instanceof ArrayBuffer));
  return move({
    get [transferableSymbol]() {
      return [...memory];
    },
    get [valueSymbol]() {
      return value;
    },
  });
}

/** The job for `PreparePool.runJob`. */
export const PREPARE_PROM_JOB: PoolJob<PromPrepareTask, PromPrepareResult> = {
  filename: workerModule('metrics/ingest/promWriteWire.ts'),
  run: preparePromWrite,
};

/** Snappy block; a body that is not one is a clear 400, one larger than `maxBytes` inflated is refused unread. */
export function inflate(body: Buffer, maxBytes: number): Buffer {
  const notSnappy = (err: unknown) =>
    new OtlpDecodeError(
      `body is not snappy-compressed (remote write sends Content-Encoding: snappy): ${(err as Error).message}`,
    );
  let stated: number;
  try {
    stated = snappyBlockLength(body);
  } catch (err) {
    throw notSnappy(err);
  }
  if (stated > maxBytes) throw new OtlpDecodeError(`remote write body exceeds ${maxBytes} bytes after decompression`);
  try {
    return decodeSnappyBlock(body, maxBytes);
  } catch (err) {
    throw notSnappy(err);
  }
}

/** Reads a WriteRequest (remote write 1.0) into columns; malformed bytes are an OtlpDecodeError. */
export function decodePromColumns(
  raw: Buffer,
  projectId: number,
  dropAttrs: readonly string[],
  full = false,
): PromColumns {
  try {
    return readWriteRequest(new WireReader(raw), raw.length, projectId, dropAttrs, full);
  } catch (err) {
    if (err instanceof WireError)
      throw new OtlpDecodeError(`body is not a Prometheus remote write WriteRequest: ${err.message}`);
    throw err;
  }
}

function readWriteRequest(
  r: WireReader,
  end: number,
  projectId: number,
  dropAttrs: readonly string[],
  full: boolean,
): PromColumns {
  const scope = knownScope(projectId, dropAttrs);
  // Sized for the usual request (one sample a series); grown when a request holds more.
  let cap = 2048;
  let series = new Int32Array(cap);
  let values = new Float64Array(cap);
  let ms = new Float64Array(cap);
  const out: PromColumns = {
    ids: new Uint32Array(0),
    flags: new Uint8Array(0),
    dict: '',
    dictAt: new Int32Array(0),
    series,
    values,
    ms,
    metricKeys: [],
    metadata: [],
    samples: 0,
    rejected: 0,
    errors: [],
  };
  // Per series of the request with a stored sample; grown with the samples' columns.
  let seriesCap = 1024;
  let flags = new Uint8Array(seriesCap);
  let ids = new Uint32Array(2 * seriesCap);
  let nSeries = 0;
  const infos: string[] = [];
  // Entries whose info this request sends for the first time: marked sent once it decoded whole.
  const sending: number[] = [];
  let sendingTo: LabelTable | null = null;
  const keysByMetric = new Map<string, Set<string>>();
  // The metric and key list last added (series of one metric often share their key array).
  let lastKeys = -1;
  let n = 0;
  const reject = (k: number, why: string) => {
    out.rejected += k;
    if (out.errors.length < 5) out.errors.push(why);
  };
  const buf = r.buf as Buffer;
  while (r.pos < end) {
    const tag = r.uint32(end);
    const field = tag >>> 3;
    if (field === 3 && (tag & 7) === WIRE_LEN) {
      out.metadata.push(readMetadata(r, r.lengthEnd(end)));
      continue;
    }
    if (field !== 1 || (tag & 7) !== WIRE_LEN) {
      r.skip(tag & 7, end);
      continue;
    }
    // A TimeSeries: its labels first (their bytes are its key), then samples and histograms.
    const tsEnd = r.lengthEnd(end);
    let pieces = 0;
    let first = -1;
    let last = -1;
    let nAt = 0;
    let histograms = 0;
    while (r.pos < tsEnd) {
      const start = r.pos;
      const t = r.uint32(tsEnd);
      const f = t >>> 3;
      if ((t & 7) !== WIRE_LEN || f < 1 || f > 4 || f === 3) {
        r.skip(t & 7, tsEnd);
        continue;
      }
      const fEnd = r.lengthEnd(tsEnd);
      if (f === 1) {
        if (last !== start && first >= 0) {
          // Labels not next to each other: the key is made of their fields one by one.
          pieces = keyPiece(buf, first, last, pieces);
          first = start;
        } else if (first < 0) first = start;
        last = fEnd;
      } else if (f === 2) {
        if (nAt === samplesAt.length) samplesAt = grow(samplesAt, new Int32Array(2 * nAt));
        samplesAt[nAt++] = r.pos;
        samplesAt[nAt++] = fEnd;
      } else histograms++;
      r.pos = fEnd;
    }
    let keyBytes = buf;
    if (pieces > 0) {
      pieces = first >= 0 ? keyPiece(buf, first, last, pieces) : pieces;
      keyBytes = scratchKey;
      first = 0;
      last = pieces;
    } else if (first < 0) first = last = 0;
    const hash = labelHash(keyBytes, first, last);
    let e = scope.series.find(keyBytes, first, last, hash);
    if (e < 0) e = addSeries(scope, keyBytes, first, last, hash);
    // addSeries may have started the scopes again: the table is read after it.
    const known: LabelTable = scope.series;
    const count = nAt / 2;
    out.samples += count + histograms;
    if (histograms > 0) reject(histograms, 'native histograms are not supported (send classic histograms)');
    if (known.named[e] === 0) {
      if (count > 0) reject(count, 'a series has no __name__ label');
      r.pos = tsEnd;
      continue;
    }
    const index = nSeries;
    let stored = 0;
    for (let i = 0; i < nAt; i += 2) {
      r.pos = samplesAt[i];
      const sEnd = samplesAt[i + 1];
      let value = 0;
      let time = 0;
      while (r.pos < sEnd) {
        const t = r.uint32(sEnd);
        if (t === ((1 << 3) | WIRE_FIXED64)) value = r.double(sEnd);
        else if (t === ((2 << 3) | WIRE_VARINT)) time = timestampMs(r, sEnd);
        else r.skip(t & 7, sEnd);
      }
      // Prometheus's staleness marker is a NaN: a series ended, nothing to store; other NaNs alike.
      if (Number.isNaN(value)) continue;
      if (!Number.isFinite(value)) {
        reject(1, `metric "${known.series[e].name}": a sample is ${value}`);
        continue;
      }
      if (time === 0) {
        reject(1, `metric "${known.series[e].name}": datapoint without a time`);
        continue;
      }
      if (!(time >= MIN_MS && time < MAX_MS)) {
        reject(1, `metric "${known.series[e].name}": datapoint time outside 2001-09-09 to 2106-01-01`);
        continue;
      }
      if (n === cap) {
        cap *= 2;
        series = grow(series, new Int32Array(cap));
        values = grow(values, new Float64Array(cap));
        ms = grow(ms, new Float64Array(cap));
      }
      series[n] = index;
      values[n] = value;
      ms[n] = time;
      n++;
      stored++;
    }
    r.pos = tsEnd;
    if (stored === 0) continue;
    if (nSeries === seriesCap) {
      seriesCap *= 2;
      flags = grow(flags, new Uint8Array(seriesCap));
      ids = grow(ids, new Uint32Array(2 * seriesCap));
    }
    ids[2 * nSeries] = known.hi[e];
    ids[2 * nSeries + 1] = known.lo[e];
    flags[nSeries++] = known.flags[e];
    if (known.sent[e] === 1 && !full) infos.push('');
    else {
      infos.push(known.series[e].info);
      if (known.sent[e] === 0) {
        // Entries of a table the scopes dropped meanwhile are not marked (that table is gone).
        if (sendingTo !== known) sending.length = 0;
        sendingTo = known;
        sending.push(e);
      }
    }
    if (known.keysNumber[e] !== lastKeys) {
      const s = known.series[e];
      let set = keysByMetric.get(s.name);
      if (!set) keysByMetric.set(s.name, (set = new Set()));
      for (const k of s.keys) set.add(k);
      lastKeys = known.keysNumber[e];
    }
  }
  out.series = series.subarray(0, n);
  out.values = values.subarray(0, n);
  out.ms = ms.subarray(0, n);
  out.flags = flags.subarray(0, nSeries);
  out.ids = ids.subarray(0, 2 * nSeries);
  out.dict = infos.join('');
  out.dictAt = new Int32Array(infos.length + 1);
  for (let i = 0, at = 0; i < infos.length; i++) out.dictAt[i + 1] = at += infos[i].length;
  for (const [name, keys] of keysByMetric) out.metricKeys.push([name, [...keys].sort()]);
  for (const e of sending) sendingTo!.sent[e] = 1;
  return out;
}

/**
 * A Sample's timestamp (an int64 varint, Unix ms) as a number, without WireReader.int64's
 * number-or-bigint (a fifth of the decode's own time in bench/metrics/workerCost.ts under
 * --cpu-prof): exact below 2^53; a negative one (ten bytes) comes out at 2^63 or more, outside
 * every time a sample may have, as a large one does.
 */
function timestampMs(r: WireReader, end: number): number {
  const buf = r.buf;
  let pos = r.pos;
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      r.pos = pos;
      return value;
    }
    scale *= 128;
  }
  throw new WireError('invalid varint encoding');
}

/** A series' label fields when they are not next to each other, put together (rare). */
let scratchKey = Buffer.alloc(1024);

/** Appends `buf[start, end)` to `scratchKey` at `at`; returns the new end. */
function keyPiece(buf: Buffer, start: number, end: number, at: number): number {
  if (at + end - start > scratchKey.length) {
    const bigger = Buffer.alloc(2 * (at + end - start));
    scratchKey.copy(bigger, 0, 0, at);
    scratchKey = bigger;
  }
  return at + buf.copy(scratchKey, at, start, end);
}

function readMetadata(r: WireReader, end: number): PromMetadata {
  const m: PromMetadata = { type: 0, family: '', help: '', unit: '' };
  while (r.pos < end) {
    const t = r.uint32(end);
    if (t === ((1 << 3) | WIRE_VARINT)) m.type = r.uint32(end) | 0;
    else if (t === ((2 << 3) | WIRE_LEN)) m.family = r.string(end);
    else if (t === ((4 << 3) | WIRE_LEN)) m.help = r.string(end);
    else if (t === ((5 << 3) | WIRE_LEN)) m.unit = r.string(end);
    else r.skip(t & 7, end);
  }
  return m;
}
