import { InflatedTooLarge } from './limit';

/**
 * LZ4 request bodies in the LZ4 frame format (lz4_Frame_format.md), which the Collector's
 * confighttp client sends under `Content-Encoding: lz4` (pierrec/lz4 v4 Writer). Decoded here
 * rather than by a library: the JavaScript ones either skip bounds checks or cannot stop at a
 * size limit. Every length is checked against the input, each block's output against the
 * frame's block maximum, the total against the request limit (a stated content size is checked
 * before decoding), and the header, block and content checksums (xxHash32) are verified.
 */

const FRAME_MAGIC = 0x184d2204;
const BLOCK_MAX = [0, 0, 0, 0, 64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024];
const MIN_MATCH = 4;

export function decodeLz4Frames(body: Uint8Array, maxBytes: number): Buffer {
  if (body.length === 0) throw new Error('lz4 body is empty');
  const out = new GrowingOutput(maxBytes, body.length);
  let pos = 0;
  while (pos < body.length) {
    const magic = readU32(body, pos);
    if (magic >>> 4 === 0x184d2a5) {
      pos += 8 + readU32(body, pos + 4); // skippable frame
      if (pos > body.length) throw new Error('lz4 skippable frame is cut short');
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new Error('not an lz4 frame (bad magic number)');
    pos = decodeFrame(body, pos + 4, out);
  }
  return out.toBuffer();
}

function decodeFrame(src: Uint8Array, pos: number, out: GrowingOutput): number {
  const descStart = pos;
  need(src, pos, 2);
  const flg = src[pos++];
  const bd = src[pos++];
  if (flg >> 6 !== 1) throw new Error('lz4 frame version is not 01');
  if (flg & 0x02 || bd & 0x8f) throw new Error('lz4 frame descriptor has reserved bits set');
  const blockChecksum = (flg & 0x10) !== 0;
  const hasContentSize = (flg & 0x08) !== 0;
  const contentChecksum = (flg & 0x04) !== 0;
  const hasDictId = (flg & 0x01) !== 0;
  const blockMax = BLOCK_MAX[(bd >> 4) & 7];
  if (!blockMax) throw new Error('lz4 frame block maximum size is invalid');
  let contentSize = -1;
  if (hasContentSize) {
    need(src, pos, 8);
    contentSize = readU32(src, pos) + readU32(src, pos + 4) * 2 ** 32;
    pos += 8;
    if (out.length + contentSize > out.maxBytes) throw new InflatedTooLarge(out.maxBytes);
  }
  if (hasDictId) throw new Error('lz4 frame needs a dictionary, which is not supported');
  need(src, pos, 1);
  if (((xxh32(src, descStart, pos) >>> 8) & 0xff) !== src[pos]) throw new Error('lz4 frame header checksum mismatch');
  pos++;
  const frameStart = out.length;
  for (;;) {
    need(src, pos, 4);
    const word = readU32(src, pos);
    pos += 4;
    if (word === 0) break; // EndMark
    const uncompressed = word >>> 31 === 1;
    const size = word & 0x7fffffff;
    if (size > blockMax) throw new Error(`lz4 block of ${size} bytes passes the frame's ${blockMax}-byte maximum`);
    need(src, pos, size + (blockChecksum ? 4 : 0));
    if (blockChecksum && xxh32(src, pos, pos + size) !== readU32(src, pos + size))
      throw new Error('lz4 block checksum mismatch');
    if (uncompressed) out.append(src.subarray(pos, pos + size));
    else decodeBlock(src, pos, pos + size, out, out.length + blockMax);
    pos += size + (blockChecksum ? 4 : 0);
  }
  if (contentChecksum) {
    need(src, pos, 4);
    if (xxh32(out.bytes(), frameStart, out.length) !== readU32(src, pos))
      throw new Error('lz4 content checksum mismatch');
    pos += 4;
  }
  if (contentSize >= 0 && out.length - frameStart !== contentSize)
    throw new Error(`lz4 frame states ${contentSize} bytes but holds ${out.length - frameStart}`);
  return pos;
}

/** One LZ4 block (lz4_Block_format.md): sequences of literals then a back-reference. */
function decodeBlock(src: Uint8Array, pos: number, end: number, out: GrowingOutput, blockEnd: number): void {
  while (pos < end) {
    const token = src[pos++];
    let literals = token >> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (pos >= end) throw new Error('lz4 block ends inside a literal length');
        b = src[pos++];
        literals += b;
      } while (b === 255);
    }
    if (pos + literals > end) throw new Error('lz4 block literals run past the block');
    if (out.length + literals > blockEnd) throw new Error("lz4 block output passes the frame's block maximum");
    out.append(src.subarray(pos, pos + literals));
    pos += literals;
    if (pos === end) return; // the last sequence has literals only
    if (pos + 2 > end) throw new Error('lz4 block ends inside a match offset');
    const offset = src[pos] | (src[pos + 1] << 8);
    pos += 2;
    if (offset === 0 || offset > out.length) throw new Error('lz4 match offset points before the output');
    let matchLength = token & 15;
    if (matchLength === 15) {
      let b: number;
      do {
        if (pos >= end) throw new Error('lz4 block ends inside a match length');
        b = src[pos++];
        matchLength += b;
      } while (b === 255);
    }
    matchLength += MIN_MATCH;
    if (out.length + matchLength > blockEnd) throw new Error("lz4 block output passes the frame's block maximum");
    out.copyMatch(offset, matchLength);
  }
  throw new Error('lz4 block ends with a match (its last sequence must be literals only)');
}

function need(src: Uint8Array, pos: number, n: number): void {
  if (pos + n > src.length) throw new Error('lz4 body is cut short');
}

function readU32(src: Uint8Array, pos: number): number {
  need(src, pos, 4);
  return (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24)) >>> 0;
}

/** One contiguous output buffer (matches reach back into earlier blocks), doubled as needed up to the limit. */
class GrowingOutput {
  private buf: Buffer;
  length = 0;
  constructor(
    readonly maxBytes: number,
    inputLength: number,
  ) {
    this.buf = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(64 * 1024, inputLength * 4)));
  }

  private ensure(n: number): void {
    const want = this.length + n;
    if (want > this.maxBytes) throw new InflatedTooLarge(this.maxBytes);
    if (want <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(want, this.buf.length * 2)));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  append(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  copyMatch(offset: number, n: number): void {
    this.ensure(n);
    const from = this.length - offset;
    // An overlapping match repeats its last `offset` bytes: copy in runs that never overlap,
    // each as long as the distance so far (it doubles).
    for (let done = 0; done < n;) {
      const run = Math.min(n - done, this.length + done - from);
      this.buf.copyWithin(this.length + done, from, from + run);
      done += run;
    }
    this.length += n;
  }

  bytes(): Buffer {
    return this.buf;
  }

  toBuffer(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;
const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const round = (acc: number, lane: number) => Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);

/** xxHash32 with seed 0 of src[start, end). */
export function xxh32(src: Uint8Array, start: number, end: number): number {
  const u32 = (i: number) => src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24);
  const len = end - start;
  let p = start;
  let h: number;
  if (len >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2;
    let v3 = 0;
    let v4 = -P1 | 0;
    const limit = end - 16;
    while (p <= limit) {
      v1 = round(v1, u32(p));
      v2 = round(v2, u32(p + 4));
      v3 = round(v3, u32(p + 8));
      v4 = round(v4, u32(p + 12));
      p += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = P5;
  }
  h = (h + len) | 0;
  while (p + 4 <= end) {
    h = Math.imul(rotl((h + Math.imul(u32(p), P3)) | 0, 17), P4);
    p += 4;
  }
  while (p < end) {
    h = Math.imul(rotl((h + Math.imul(src[p], P5)) | 0, 11), P1);
    p++;
  }
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}
