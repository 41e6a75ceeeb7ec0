import { CappedOutput, InflatedTooLarge } from './limit';

/**
 * Snappy request bodies. `Content-Encoding: snappy` names the block format, but the
 * OpenTelemetry Collector sent the framed format under that name until it added
 * `x-snappy-framed` (collector PR #12911), so a `snappy` body is looked at like the Collector's
 * own server does: one that starts with the framed stream-identifier chunk is framed, any other
 * is a block.
 */

/** The stream-identifier chunk every framed snappy stream starts with: type 0xff, length 6, "sNaPpY". */
const STREAM_IDENTIFIER = Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);

/** Largest uncompressed data one framed chunk may carry (framing_format.txt §4.2, §4.3). */
const MAX_CHUNK_DATA = 65_536;

export function isFramedSnappy(body: Uint8Array): boolean {
  return (
    body.length >= STREAM_IDENTIFIER.length && STREAM_IDENTIFIER.equals(body.subarray(0, STREAM_IDENTIFIER.length))
  );
}

/** The uncompressed length a snappy block states up front (a little-endian base-128 varint). */
export function snappyBlockLength(block: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (i >= block.length) throw new Error('snappy block ends inside its length');
    const b = block[i];
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) {
      if (value > 0xffff_ffff) throw new Error('snappy block length is out of range');
      return value;
    }
  }
  throw new Error('snappy block length is longer than 5 bytes');
}

/** A snappy block, its stated length checked against the limit before anything is allocated. */
export function decodeSnappyBlock(block: Uint8Array, maxBytes: number): Buffer {
  const length = snappyBlockLength(block);
  if (length > maxBytes) throw new InflatedTooLarge(maxBytes);
  return inflateBlock(block, length);
}

/**
 * The block format (google/snappy format_description.txt): after the length, elements of a tag
 * byte (its low two bits the kind) and a literal's bytes or a copy's offset. Decoded here rather
 * than by the `snappy` package: its native call took 0.6 ms for a 226 kB remote write body
 * (compressed or literal) against 0.06-0.21 ms for this loop (bench/metrics/snappyCost.ts), which
 * copies literals and non-overlapping copies of 16 bytes or more natively. Every length and
 * offset is checked against the input and the stated length: a malformed block is an Error.
 */
function inflateBlock(src: Uint8Array, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  const n = src.length;
  let pos = 0;
  while (src[pos++] >= 0x80);
  let d = 0;
  while (pos < n) {
    const tag = src[pos++];
    const kind = tag & 3;
    let len: number;
    if (kind === 0) {
      len = tag >>> 2;
      if (len >= 60) {
        const bytes = len - 59;
        if (pos + bytes > n) throw new Error('snappy literal ends inside its length');
        len = 0;
        for (let i = 0; i < bytes; i++) len += src[pos++] * 2 ** (8 * i);
      }
      len += 1;
      if (pos + len > n) throw new Error('snappy literal is cut short');
      if (d + len > length) throw new Error(`snappy block holds more than the ${length} bytes it states`);
      if (len < 16) for (let i = 0; i < len; i++) out[d++] = src[pos++];
      else {
        out.set(src.subarray(pos, pos + len), d);
        pos += len;
        d += len;
      }
      continue;
    }
    let offset: number;
    if (kind === 1) {
      if (pos + 1 > n) throw new Error('snappy copy is cut short');
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos++];
    } else if (kind === 2) {
      if (pos + 2 > n) throw new Error('snappy copy is cut short');
      len = (tag >>> 2) + 1;
      offset = src[pos] | (src[pos + 1] << 8);
      pos += 2;
    } else {
      if (pos + 4 > n) throw new Error('snappy copy is cut short');
      len = (tag >>> 2) + 1;
      offset = (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24)) >>> 0;
      pos += 4;
    }
    if (offset === 0 || offset > d) throw new Error(`snappy copy refers to offset ${offset} at ${d}`);
    if (d + len > length) throw new Error(`snappy block holds more than the ${length} bytes it states`);
    if (offset >= len && len >= 16) {
      out.copyWithin(d, d - offset, d - offset + len);
      d += len;
    } else for (let i = 0; i < len; i++, d++) out[d] = out[d - offset];
  }
  if (d !== length) throw new Error(`snappy block states ${length} bytes but holds ${d}`);
  return out;
}

/**
 * A framed snappy stream (google/snappy framing_format.txt): chunks of type + 24-bit length;
 * compressed (0x00) and uncompressed (0x01) data chunks carry a masked CRC-32C of their
 * uncompressed data, which is checked. Each chunk holds at most 64 KiB, so the limit is applied
 * chunk by chunk.
 */
export function decodeSnappyFramed(body: Uint8Array, maxBytes: number): Buffer {
  const out = new CappedOutput(maxBytes);
  let pos = 0;
  let seenIdentifier = false;
  while (pos < body.length) {
    if (pos + 4 > body.length) throw new Error('framed snappy stream ends inside a chunk header');
    const type = body[pos];
    const len = body[pos + 1] | (body[pos + 2] << 8) | (body[pos + 3] << 16);
    const start = pos + 4;
    const end = start + len;
    if (end > body.length) throw new Error(`framed snappy chunk of ${len} bytes is cut short`);
    const data = body.subarray(start, end);
    pos = end;
    if (type === 0xff) {
      if (!STREAM_IDENTIFIER.equals(body.subarray(start - 4, end)))
        throw new Error('framed snappy stream identifier is not "sNaPpY"');
      seenIdentifier = true;
      continue;
    }
    if (!seenIdentifier) throw new Error('framed snappy stream does not start with the stream identifier');
    if (type === 0x00 || type === 0x01) {
      if (len < 4) throw new Error('framed snappy data chunk is shorter than its checksum');
      const expected = (data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)) >>> 0;
      const payload = data.subarray(4);
      let chunk: Buffer;
      if (type === 0x00) {
        const length = snappyBlockLength(payload);
        if (length > MAX_CHUNK_DATA) throw new Error(`framed snappy chunk states ${length} bytes (at most 65536)`);
        out.reserve(length);
        chunk = decodeSnappyBlock(payload, MAX_CHUNK_DATA);
      } else {
        if (payload.length > MAX_CHUNK_DATA)
          throw new Error(`framed snappy chunk holds ${payload.length} bytes (at most 65536)`);
        chunk = Buffer.from(payload);
      }
      if (maskedCrc32c(chunk) !== expected) throw new Error('framed snappy chunk fails its CRC-32C check');
      out.push(chunk);
    } else if (type <= 0x7f) {
      throw new Error(`framed snappy stream has the reserved unskippable chunk type 0x${type.toString(16)}`);
    }
    // 0x80-0xfe: skippable (0xfe is padding)
  }
  if (!seenIdentifier) throw new Error('framed snappy stream is empty');
  return out.toBuffer();
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC32C_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The framing format's checksum: CRC-32C rotated right by 15 bits plus a constant. */
export function maskedCrc32c(data: Uint8Array): number {
  const crc = crc32c(data);
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}
