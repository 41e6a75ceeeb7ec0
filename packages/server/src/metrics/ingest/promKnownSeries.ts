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
  /** Whether this worker sent `info` to the main thread in a request that decoded whole. */
  sent: boolean;
  hi: number;
  lo: number;
  flags: number;
  /** Its attribute keys, one array per metric and key list (shared by its series). */
  keys: string[];
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
const keyArrays = new Map<string, string[]>();

export function knownScope(projectId: number, dropAttrs: readonly string[]): KnownScope {
  const key = `${projectId}\u0001${dropAttrs.join('\u0003')}`;
  let scope = scopes.get(key);
  if (!scope) {
    scope = { projectId, drop: dropAttrs.length > 0 ? new Set(dropAttrs) : undefined, series: new LabelTable() };
    scopes.set(key, scope);
  }
  return scope;
}

/** Makes and keeps the series of the label fields `bytes[start, end)` (hash: `labelHash`), new to `scope`. */
export function addSeries(scope: KnownScope, bytes: Buffer, start: number, end: number, hash: number): KnownSeries {
  if (knownSize++ >= KNOWN_MAX) {
    for (const s of scopes.values()) s.series = new LabelTable();
    keyArrays.clear();
    knownSize = 1;
  }
  const s = newSeries(scope.projectId, labelFields(bytes.subarray(start, end)), scope.drop);
  scope.series.set(bytes, start, end, hash, s);
  return s;
}

/** MurmurHash3 (32 bits) of `bytes[start, end)`. */
export function labelHash(bytes: Uint8Array, start: number, end: number): number {
  let h = end - start;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  let k = 0;
  for (let shift = 0; i < end; i++, shift += 8) k |= bytes[i] << shift;
  k = Math.imul(k, 0xcc9e2d51);
  h ^= Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= end - start;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Series by their label fields' bytes: open addressing on the bytes' hash, each key's bytes kept
 * in one growing buffer and compared on a hit. A string of each key (a Latin-1 slice) and its Map
 * lookup cost a worker more per sample and left ~110 bytes of garbage a sample.
 */
export class LabelTable {
  private slots = new Int32Array(1024);
  private hashes = new Uint32Array(512);
  private keyAt = new Int32Array(512);
  private keyLength = new Int32Array(512);
  private keys = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  private readonly values: KnownSeries[] = [];

  get size(): number {
    return this.values.length;
  }

  get(bytes: Buffer, start: number, end: number, hash: number): KnownSeries | undefined {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const e = this.slots[i] - 1;
      if (e < 0) return undefined;
      if (this.hashes[e] !== hash || this.keyLength[e] !== length) continue;
      const at = this.keyAt[e];
      if (bytes.compare(this.keys, at, at + length, start, end) === 0) return this.values[e];
    }
  }

  set(bytes: Buffer, start: number, end: number, hash: number, value: KnownSeries): void {
    const e = this.values.length;
    const length = end - start;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes, new Uint32Array(2 * e));
      this.keyAt = grown(this.keyAt, new Int32Array(2 * e));
      this.keyLength = grown(this.keyLength, new Int32Array(2 * e));
    }
    if (this.used + length > this.keys.length) {
      const keys = Buffer.allocUnsafeSlow(Math.max(2 * this.keys.length, this.used + length));
      this.keys.copy(keys, 0, 0, this.used);
      this.keys = keys;
    }
    bytes.copy(this.keys, this.used, start, end);
    this.hashes[e] = hash;
    this.keyAt[e] = this.used;
    this.keyLength[e] = length;
    this.used += length;
    this.values.push(value);
    if (2 * this.values.length > this.slots.length) {
      this.slots = new Int32Array(2 * this.slots.length);
      for (let k = 0; k < this.values.length; k++) this.place(k);
    } else this.place(e);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let i = this.hashes[e] & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = e + 1;
  }
}

function grown<T extends Int32Array | Uint32Array>(from: T, to: T): T {
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
  if (!shared) keyArrays.set(keysKey, (shared = keys));
  return {
    name: metric,
    info: `${hash}\u001f${metric.length}\u001f${metric}${datapointTail(keys, vals).slice(0, -1)}`,
    sent: false,
    hi,
    lo,
    flags,
    keys: shared,
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
