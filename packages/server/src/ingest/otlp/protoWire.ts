/**
 * The protobuf wire format, read straight from the body's bytes (decodeProto.ts): varints,
 * fixed-width numbers, length-delimited fields, and skipping what a message does not know. It
 * throws WireError on anything malformed (the caller turns that into a refused request), with
 * the same rules protobufjs applies: varints of at most 10 bytes, nothing read past the end,
 * group wire types skipped to their end, wire types 6 and 7 refused.
 */
export class WireError extends Error {}

/** Node's Buffer without the argument checks of toString (protobufjs uses the same methods). */
interface SliceBuffer extends Buffer {
  utf8Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

export class WireReader {
  readonly buf: SliceBuffer;
  pos = 0;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as SliceBuffer;
  }

  /** A varint's low 32 bits as an unsigned number (tags, lengths, uint32; `| 0` gives int32 and enums). */
  uint32(end: number): number {
    const buf = this.buf;
    let pos = this.pos;
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
      const b = buf[pos++];
      value |= (b & 127) << shift;
      if (b < 128) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    // A 64-bit varint (negative int32 values are sent in 10 bytes): its high bits are dropped.
    for (let i = 0; i < 5; i++) {
      if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
      if (buf[pos++] < 128) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw new WireError('invalid varint encoding');
  }

  /** A signed int64 varint: a number when exact, else a bigint (as pbInt64 makes of protobufjs' Long). */
  int64(end: number): number | bigint {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let i = 0;
    for (; i < 4; i++) {
      if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
      const b = buf[pos++];
      lo |= (b & 127) << (i * 7);
      if (b < 128) return this.done(pos, lo, 0);
    }
    if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
    let b = buf[pos++];
    lo |= (b & 127) << 28;
    let hi = (b & 127) >> 4;
    if (b < 128) return this.done(pos, lo, hi);
    for (i = 0; i < 5; i++) {
      if (pos >= end) throw new WireError(`index out of range: ${pos} + 1 > ${end}`);
      b = buf[pos++];
      hi |= (b & 127) << (i * 7 + 3);
      if (b < 128) return this.done(pos, lo, hi);
    }
    throw new WireError('invalid varint encoding');
  }

  private done(pos: number, lo: number, hi: number): number | bigint {
    this.pos = pos;
    const n = (hi | 0) * 4294967296 + (lo >>> 0);
    if (Number.isSafeInteger(n)) return n;
    return (BigInt(hi | 0) << 32n) | BigInt(lo >>> 0);
  }

  fixed64(end: number): bigint {
    const pos = this.pos;
    if (pos + 8 > end) throw new WireError(`index out of range: ${pos} + 8 > ${end}`);
    this.pos = pos + 8;
    return this.buf.readBigUInt64LE(pos);
  }

  double(end: number): number {
    const pos = this.pos;
    if (pos + 8 > end) throw new WireError(`index out of range: ${pos} + 8 > ${end}`);
    this.pos = pos + 8;
    return this.buf.readDoubleLE(pos);
  }

  /** The end of a length-delimited field starting here (its length read), checked against `end`. */
  lengthEnd(end: number): number {
    const len = this.uint32(end);
    const to = this.pos + len;
    if (to > end) throw new WireError(`index out of range: ${this.pos} + ${len} > ${end}`);
    return to;
  }

  string(end: number): string {
    const to = this.lengthEnd(end);
    const s = to === this.pos ? '' : this.buf.utf8Slice(this.pos, to);
    this.pos = to;
    return s;
  }

  /** A bytes field as lowercase hex. */
  hex(end: number): string {
    const to = this.lengthEnd(end);
    const s = to === this.pos ? '' : this.buf.hexSlice(this.pos, to);
    this.pos = to;
    return s;
  }

  /** Skips a field of this wire type whose tag has been read. */
  skip(wireType: number, end: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.uint32(end);
        return;
      case WIRE_FIXED64:
        if (this.pos + 8 > end) throw new WireError(`index out of range: ${this.pos} + 8 > ${end}`);
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.pos = this.lengthEnd(end);
        return;
      case 3: {
        // A group: skipped field by field up to its end-group tag.
        for (;;) {
          const tag = this.uint32(end);
          if ((tag & 7) === 4) return;
          this.skip(tag & 7, end);
        }
      }
      case WIRE_FIXED32:
        if (this.pos + 4 > end) throw new WireError(`index out of range: ${this.pos} + 4 > ${end}`);
        this.pos += 4;
        return;
      default:
        throw new WireError(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }
}
