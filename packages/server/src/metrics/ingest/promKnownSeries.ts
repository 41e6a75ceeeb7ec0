import { createHash } from 'node:crypto';
import { cleanAttrKey, fixKeyValues, WIRE_LEN, WireReader, type PbKeyValue } from '../../ingest';
import { datapointTail } from '../../storage/telemetry';
import { baseAttrs, seriesOf } from './metricSeries';

/**
 * The series a remote write worker knows (promWriteWire.ts), by their label fields' bytes, per
 * project and drop list: made once as the OTLP mapping would make them, then found by a hash of
 * those bytes (`LabelTable`) a request. Bounded: past KNOWN_MAX series in all scopes, every scope
 * starts again.
 */
export interface KnownSeries {
  /** '' when the series has no `__name__`. */
  name: string;
  /** Its part of PromColumns.dict. */
  info: string;
  hi: number;
  lo: number;
  flags: number;
  /** Its attribute keys, one array per metric and key list (shared by its series). */
  keys: string[];
  /** The number of its metric and key list (its `keys` array's). */
  keysNumber: number;
}

export interface KnownScope {
  projectId: number;
  drop: ReadonlySet<string> | undefined;
  /** By the label fields' bytes. */
  series: LabelTable;
}

/** PromColumns.flags: an `le` label; a `quantile` label. */
export const FLAG_LE = 1;
export const FLAG_QUANTILE = 2;

const KNOWN_MAX = 200_000;
const scopes = new Map<string, KnownScope>();
let knownSize = 0;
/**
 * One key array per metric and key list, shared by its series (cleared with the scopes): a
 * request's catalogue keys are then collected once per run of such series, not per series.
 */
const keyArrays = new Map<string, { keys: string[]; number: number }>();
/** Numbers the key arrays: never reused, also across a clear (a request may span one). */
let keyListsMade = 0;

export function knownScope(projectId: number, dropAttrs: readonly string[]): KnownScope {
  const key = `${projectId}\u0001${dropAttrs.join('\u0003')}`;
  let scope = scopes.get(key);
  if (!scope) {
    scope = { projectId, drop: dropAttrs.length > 0 ? new Set(dropAttrs) : undefined, series: new LabelTable() };
    scopes.set(key, scope);
  }
  return scope;
}

/**
 * Makes and keeps the series of the label fields `bytes[start, end)` (hash: `labelHash`), new to
 * `scope`; returns its entry in `scope.series`.
 */
export function addSeries(scope: KnownScope, bytes: Buffer, start: number, end: number, hash: number): number {
  if (knownSize++ >= KNOWN_MAX) {
    for (const s of scopes.values()) s.series = new LabelTable();
    keyArrays.clear();
    knownSize = 1;
  }
  const s = newSeries(scope.projectId, labelFields(bytes.subarray(start, end)), scope.drop);
  return scope.series.add(bytes, start, end, hash, s);
}

/**
 * A 32-bit hash of `bytes[start, end)`: two lanes of 4 bytes each multiplied and shifted (they run
 * side by side), MurmurHash3's finaliser over both. ~70 ns for a series' ~110 bytes against ~125
 * for MurmurHash3's one lane; a hit is checked against the key's bytes, so the hash only spreads.
 */
export function labelHash(bytes: Uint8Array, start: number, end: number): number {
  let a = end - start;
  let b = 0x9e3779b9;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    a = Math.imul(a ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)), 0x85ebca6b);
    b = Math.imul(b ^ (bytes[i + 4] | (bytes[i + 5] << 8) | (bytes[i + 6] << 16) | (bytes[i + 7] << 24)), 0xc2b2ae35);
    a ^= a >>> 15;
    b ^= b >>> 13;
  }
  for (; i < end; i++) a = Math.imul(a ^ bytes[i], 0x01000193);
  let h = a ^ Math.imul(b, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Series by their label fields' bytes: open addressing on the bytes' hash, each key's bytes kept
 * in one growing buffer and compared on a hit. A string of each key (a Latin-1 slice) and its Map
 * lookup cost a worker more per sample and left ~110 bytes of garbage a sample. What a request
 * reads of every series is in columns by entry (`hi`, `lo`, `flags`, `named`, `sent`,
 * `keysNumber`): entries are numbered as first seen, and a sender's requests list its series in
 * about that order, so reading them goes through memory in order; the first touch of a series'
 * object was ~40 % of the decode's own time (bench/metrics/workerCost.ts under --cpu-prof).
 */
export class LabelTable {
  private slots = new Int32Array(1024);
  private hashes = new Uint32Array(512);
  private keyAt = new Int32Array(512);
  private keyLength = new Int32Array(512);
  private keyBytes = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  hi = new Uint32Array(512);
  lo = new Uint32Array(512);
  flags = new Uint8Array(512);
  /** 1 when the series has a `__name__`. */
  named = new Uint8Array(512);
  /** 1 once this worker sent its `info` to the main thread in a request that decoded whole. */
  sent = new Uint8Array(512);
  keysNumber = new Int32Array(512);
  readonly series: KnownSeries[] = [];

  get size(): number {
    return this.series.length;
  }

  /** The entry of the key `bytes[start, end)`, or -1. */
  find(bytes: Buffer, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const e = this.slots[i] - 1;
      if (e < 0) return -1;
      if (this.hashes[e] !== hash || this.keyLength[e] !== length) continue;
      const at = this.keyAt[e];
      if (bytes.compare(this.keyBytes, at, at + length, start, end) === 0) return e;
    }
  }

  /** Adds a key not in the table; returns its entry. */
  add(bytes: Buffer, start: number, end: number, hash: number, s: KnownSeries): number {
    const e = this.series.length;
    const length = end - start;
    if (e === this.hashes.length) {
      const n = 2 * e;
      this.hashes = grow(this.hashes, new Uint32Array(n));
      this.keyAt = grow(this.keyAt, new Int32Array(n));
      this.keyLength = grow(this.keyLength, new Int32Array(n));
      this.hi = grow(this.hi, new Uint32Array(n));
      this.lo = grow(this.lo, new Uint32Array(n));
      this.flags = grow(this.flags, new Uint8Array(n));
      this.named = grow(this.named, new Uint8Array(n));
      this.sent = grow(this.sent, new Uint8Array(n));
      this.keysNumber = grow(this.keysNumber, new Int32Array(n));
    }
    if (this.used + length > this.keyBytes.length) {
      const keyBytes = Buffer.allocUnsafeSlow(Math.max(2 * this.keyBytes.length, this.used + length));
      this.keyBytes.copy(keyBytes, 0, 0, this.used);
      this.keyBytes = keyBytes;
    }
    bytes.copy(this.keyBytes, this.used, start, end);
    this.hashes[e] = hash;
    this.keyAt[e] = this.used;
    this.keyLength[e] = length;
    this.used += length;
    this.hi[e] = s.hi;
    this.lo[e] = s.lo;
    this.flags[e] = s.flags;
    this.named[e] = s.name === '' ? 0 : 1;
    this.keysNumber[e] = s.keysNumber;
    this.series.push(s);
    if (2 * this.series.length > this.slots.length) {
      this.slots = new Int32Array(2 * this.slots.length);
      for (let k = 0; k < this.series.length; k++) this.place(k);
    } else this.place(e);
    return e;
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let i = this.hashes[e] & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = e + 1;
  }
}

/** `to` (a larger typed array) holding `from`'s values first. */
export function grow<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The Label messages of a series' label fields (its key's bytes). */
function labelFields(bytes: Buffer): [string, string][] {
  const lr = new WireReader(bytes);
  const end = bytes.length;
  const labels: [string, string][] = [];
  while (lr.pos < end) {
    lr.uint32(end); // the tag of field 1 (Label)
    const lEnd = lr.lengthEnd(end);
    let name = '';
    let value = '';
    while (lr.pos < lEnd) {
      const t = lr.uint32(lEnd);
      if (t === ((1 << 3) | WIRE_LEN)) name = lr.string(lEnd);
      else if (t === ((2 << 3) | WIRE_LEN)) value = lr.string(lEnd);
      else lr.skip(t & 7, lEnd);
    }
    labels.push([name, value]);
  }
  return labels;
}

/** A series' identity as the OTLP mapping gives it: labels as string attributes, `__name__` the metric. */
function newSeries(projectId: number, labels: [string, string][], drop: ReadonlySet<string> | undefined): KnownSeries {
  let name: string | null = null;
  let flags = 0;
  const attrs: PbKeyValue[] = [];
  for (const [k, v] of labels) {
    if (k === '__name__') name ??= v;
    else if (k) {
      attrs.push({ key: k, value: { stringValue: v } });
      if (k === 'le') flags |= FLAG_LE;
      if (k === 'quantile') flags |= FLAG_QUANTILE;
    }
  }
  attrs.sort((a, b) => (a.key! < b.key! ? -1 : 1));
  const { keys, vals, hash } = seriesOf(baseAttrs({}, drop), fixKeyValues(attrs));
  const metric = name ? cleanAttrKey(name) : '';
  const [hi, lo] = seriesId(`${projectId}\u0000${metric}\u0000${hash}`);
  const keysKey = `${metric}\u0000${keys.join('\u0000')}`;
  let shared = keyArrays.get(keysKey);
  if (!shared) keyArrays.set(keysKey, (shared = { keys, number: keyListsMade++ }));
  return {
    name: metric,
    info: `${hash}\u001f${metric.length}\u001f${metric}${datapointTail(keys, vals).slice(0, -1)}`,
    hi,
    lo,
    flags,
    keys: shared.keys,
    keysNumber: shared.number,
  };
}

/**
 * A series' id: the first 8 bytes of SHA-1 over its project, metric and hash, as two uint32s (as
 * unlikely to collide as the series hash itself, also 8 bytes of SHA-1). Once per series and worker.
 */
function seriesId(text: string): [number, number] {
  const d = createHash('sha1').update(text).digest();
  return [d.readUInt32BE(0), d.readUInt32BE(4)];
}
