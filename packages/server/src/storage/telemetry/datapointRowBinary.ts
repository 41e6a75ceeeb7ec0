import { ByteWriter } from './byteWriter';
import { datapointHead, datapointTail, datapointValues } from './datapointStaging';
import type { FoldRow, FoldSeries } from './foldSeries';

/**
 * The fold's written rows (its checkpoints, datapointFoldWriter.ts) as RowBinary of DATAPOINT_STRUCTURE
 * (datapointRollups.ts) instead of TabSeparated text (docs/benchmarks.md, "Remote write, sixth
 * round"): the main thread copies a series' bytes and writes the numbers as they are (no number
 * formatting), and the engine reads fixed-width fields instead of parsing text. A row: project_id
 * u32, metric (varint length, UTF-8), time u32, attrs_hash u64, instrument, min, max, sum f64,
 * count u64, gauge f64, the histogram's two arrays (varint count, then f64 values, u64 counts),
 * string_keys and string_values (varint count, then strings); little-endian. A series' parts
 * other than the time and values are made once from its text (`pre`, `post`, `tail`) and kept on
 * it. `rowBinaryLines` reads rows back as the text lines they stand for (a start's checkpoint keys,
 * a checkpoint whose file could not be written folded back).
 */

export class MalformedRowBinary extends Error {}

/** Writes row `r` of series `s`. */
export function writeRowBinary(out: ByteWriter, s: FoldSeries, r: FoldRow): void {
  if (s.bin === null) seriesBinary(s);
  const bin = s.bin!;
  const tail = r.tail === s.tail ? null : tailBinary(r.tail);
  out.row(bin, s.binPost, s.binTail, r.time, r.min, r.max, r.sum, r.count, r.gauge);
  if (r.hist !== null) {
    out.varint(r.hist.size);
    for (const v of r.hist.keys()) out.f64(v);
    out.varint(r.hist.size);
    for (const c of r.hist.values()) out.u64(c);
  } else out.u16(0);
  if (tail === null) out.rest(bin, s.binTail);
  else out.bytes(tail);
}

/**
 * A series' parts are written here, then copied out (one small allocation a series; a copy of a
 * few tens of bytes from the buffer pool).
 */
const scratch = new ByteWriter(4096);

/** Makes and keeps `s`'s parts: project and metric, then (at binPost) hash and instrument, then (at binTail) the arrays. */
function seriesBinary(s: FoldSeries): void {
  const pre = s.pre;
  const tab = pre.indexOf('\t');
  const post = s.post;
  const hashEnd = post.indexOf('\t', 1);
  const instrumentEnd = post.indexOf('\t', hashEnd + 1);
  const hash = post.slice(1, hashEnd);
  if (
    tab < 0 ||
    pre.length === tab + 1 ||
    !pre.endsWith('\t') ||
    instrumentEnd !== post.length - 1 ||
    !/^\d{1,20}$/.test(hash)
  )
    throw new MalformedRowBinary(`series ${JSON.stringify(pre + post)}`);
  scratch.reset();
  scratch.u32(Number(pre.slice(0, tab)) >>> 0);
  scratch.string(untsv(pre.slice(tab + 1, -1)));
  const binPost = scratch.length;
  scratch.bigU64(BigInt(hash));
  scratch.string(untsv(post.slice(hashEnd + 1, instrumentEnd)));
  const binTail = scratch.length;
  tailInto(scratch, s.tail);
  s.bin = Buffer.from(scratch.data());
  s.binPost = binPost;
  s.binTail = binTail;
}

/** `string_keys \t string_values` (array literals of quoted strings) as two RowBinary arrays. */
function tailBinary(tail: string): Uint8Array {
  scratch.reset();
  tailInto(scratch, tail);
  return Buffer.from(scratch.data());
}

function tailInto(out: ByteWriter, tail: string): void {
  const keys: string[] = [];
  const tab = readArray(tail, 0, keys);
  if (tail.charCodeAt(tab) !== 9) throw new MalformedRowBinary(`tail ${JSON.stringify(tail)}`);
  const values: string[] = [];
  if (readArray(tail, tab + 1, values) !== tail.length) throw new MalformedRowBinary(`tail ${JSON.stringify(tail)}`);
  out.strings(keys);
  out.strings(values);
}

const UNESCAPE: Record<string, string> = { t: '\t', n: '\n', r: '\r', '0': '\0', b: '\b', f: '\f' };

/** A TSV field's text (tsvText.ts `tsv`) unescaped. */
function untsv(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/gs, (_, c: string) => UNESCAPE[c] ?? c) : s;
}

/** Reads `['a','b']` at `at` into `into`; returns the index after it. */
function readArray(text: string, at: number, into: string[]): number {
  const bad = () => new MalformedRowBinary(`array field in ${JSON.stringify(text)}`);
  if (text[at++] !== '[') throw bad();
  if (text[at] === ']') return at + 1;
  for (;;) {
    if (text[at++] !== "'") throw bad();
    let s = '';
    let from = at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c)) throw bad();
      if (c === 39) break; // '
      if (c === 92) {
        s += text.slice(from, at);
        const e = text[at + 1];
        if (e === undefined) throw bad();
        s += UNESCAPE[e] ?? e;
        at += 2;
        from = at;
      } else at++;
    }
    into.push(s + text.slice(from, at));
    at++;
    const next = text[at++];
    if (next === ']') return at;
    if (next !== ',') throw bad();
  }
}

/** RowBinary rows (as writeRowBinary writes them) as their TabSeparated lines (DATAPOINT_COLUMNS). */
export function rowBinaryLines(data: Uint8Array): string {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
  let at = 0;
  const need = (n: number) => {
    if (at + n > buf.length) throw new MalformedRowBinary(`rows cut at byte ${at} of ${buf.length}`);
  };
  const varint = () => {
    let n = 0;
    let mul = 1;
    for (;;) {
      need(1);
      const b = buf[at++];
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
  };
  const str = () => {
    const n = varint();
    need(n);
    at += n;
    return buf.toString('utf8', at - n, at);
  };
  const u32 = () => {
    need(4);
    at += 4;
    return buf.readUInt32LE(at - 4);
  };
  const f64 = () => {
    need(8);
    at += 8;
    return buf.readDoubleLE(at - 8);
  };
  const u64 = () => {
    const lo = u32();
    return lo + u32() * 2 ** 32;
  };
  const strings = () => Array.from({ length: varint() }, str);
  const lines: string[] = [];
  while (at < buf.length) {
    const project = u32();
    const metric = str();
    const time = u32();
    need(8);
    const hash = buf.readBigUInt64LE(at).toString();
    at += 8;
    const instrument = str();
    const min = f64();
    const max = f64();
    const sum = f64();
    const count = u64();
    const gauge = f64();
    const hv = Array.from({ length: varint() }, f64);
    const hc = Array.from({ length: varint() }, u64);
    const keys = strings();
    const values = strings();
    lines.push(
      datapointHead(project, metric, time, hash, instrument) +
        datapointValues(min, max, sum, count, gauge, [hv, hc]) +
        datapointTail(keys, values),
    );
  }
  return lines.join('');
}
