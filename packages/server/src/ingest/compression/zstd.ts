import { Decompress } from 'fzstd';
import { CappedOutput, InflatedTooLarge } from './limit';

/**
 * Zstandard request bodies (RFC 8878), decoded by fzstd (pure JavaScript) in streaming mode so
 * inflation stops at the limit. fzstd allocates a frame's whole window up front, and a frame may
 * declare a window of up to 2 GiB, so every frame header is read first (RFC 8878 §3.1.1) and the
 * body refused when a frame states more content than the limit or a window larger than
 * max(limit, 8 MiB): 8 MiB is the window Go's zstd encoder (the Collector's) and the zstd CLI up
 * to level 19 use. Block headers are walked too (their sizes are stated), which also refuses
 * run-length blocks that alone pass the limit before anything is decoded.
 */
const WINDOW_FLOOR = 8 * 1024 * 1024;

const ZSTD_MAGIC = 0xfd2fb528;

export function decodeZstd(body: Uint8Array, maxBytes: number): Buffer {
  checkZstdFrames(body, maxBytes, Math.max(maxBytes, WINDOW_FLOOR));
  const out = new CappedOutput(maxBytes);
  const stream = new Decompress((chunk) => out.push(chunk));
  stream.push(body, true);
  return out.toBuffer();
}

/** Reads each frame's header and block headers without decoding; throws on what cannot be decoded safely. */
export function checkZstdFrames(body: Uint8Array, maxBytes: number, maxWindow: number): void {
  const u32 = (at: number) => {
    if (at + 4 > body.length) throw new Error('zstd body ends inside a frame header');
    return (body[at] | (body[at + 1] << 8) | (body[at + 2] << 16) | (body[at + 3] << 24)) >>> 0;
  };
  if (body.length === 0) throw new Error('zstd body is empty');
  let pos = 0;
  let stated = 0; // bytes the frames' headers and raw/RLE blocks account for so far
  while (pos < body.length) {
    const magic = u32(pos);
    if (magic >>> 4 === 0x184d2a5) {
      pos += 8 + u32(pos + 4); // skippable frame
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new Error('not a zstd frame (bad magic number)');
    if (pos + 5 > body.length) throw new Error('zstd body ends inside a frame header');
    const fhd = body[pos + 4];
    const fcsFlag = fhd >> 6;
    const singleSegment = (fhd >> 5) & 1;
    const hasChecksum = (fhd >> 2) & 1;
    const dictFlag = fhd & 3;
    if (fhd & 8) throw new Error('zstd frame header has its reserved bit set');
    let p = pos + 5;
    let window = 0;
    if (!singleSegment) {
      if (p >= body.length) throw new Error('zstd body ends inside a frame header');
      const wd = body[p++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    const dictBytes = [0, 1, 2, 4][dictFlag];
    let dictId = 0;
    for (let i = 0; i < dictBytes; i++) dictId += body[p + i] * 2 ** (8 * i);
    if (dictId !== 0) throw new Error('zstd frame needs a dictionary, which is not supported');
    p += dictBytes;
    const fcsBytes = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag];
    if (p + fcsBytes > body.length) throw new Error('zstd body ends inside a frame header');
    let contentSize = -1;
    if (fcsBytes > 0) {
      contentSize = 0;
      for (let i = 0; i < fcsBytes; i++) contentSize += body[p + i] * 2 ** (8 * i);
      if (fcsBytes === 2) contentSize += 256;
      if (stated + contentSize > maxBytes) throw new InflatedTooLarge(maxBytes);
    }
    p += fcsBytes;
    if (singleSegment) window = contentSize;
    if (window > maxWindow) throw new InflatedTooLarge(maxBytes);
    let frameStated = 0;
    for (;;) {
      if (p + 3 > body.length) throw new Error('zstd body ends inside a block header');
      const header = body[p] | (body[p + 1] << 8) | (body[p + 2] << 16);
      p += 3;
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new Error('zstd block has the reserved block type');
      if (type !== 2) {
        frameStated += size; // raw and run-length blocks decode to exactly `size` bytes
        if (stated + frameStated > maxBytes) throw new InflatedTooLarge(maxBytes);
      }
      p += type === 1 ? 1 : size;
      if (p > body.length) throw new Error('zstd body ends inside a block');
      if (last) break;
    }
    p += hasChecksum ? 4 : 0;
    if (p > body.length) throw new Error('zstd body ends inside a frame checksum');
    stated += contentSize >= 0 ? contentSize : frameStated;
    pos = p;
  }
}
