/**
 * Datapoint rows into one growing buffer (the fold's written rows, DatapointFold.take, as RowBinary:
 * datapointRowBinary.ts): a series' parts as bytes (kept per series), the time and values as
 * numbers (docs/benchmarks.md, "Remote write, fourth round" to "sixth round").
 */
export class ByteWriter {
  private buf: Buffer;
  private at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /**
   * A RowBinary row's series parts and numbers (datapointRowBinary.ts): `bin` up to `post`, the
   * time (u32), `bin` from `post` to `tail`, then min, max, sum (f64), count (u64) and gauge (f64).
   * The histogram and the arrays follow (the caller's).
   */
  row(
    bin: Buffer,
    post: number,
    tail: number,
    time: number,
    min: number,
    max: number,
    sum: number,
    count: number,
    gauge: number,
  ): void {
    this.room(tail + 44);
    const buf = this.buf;
    let at = this.at;
    bin.copy(buf, at, 0, post);
    at = buf.writeUInt32LE(time, at + post);
    at += bin.copy(buf, at, post, tail);
    at = buf.writeDoubleLE(min, at);
    at = buf.writeDoubleLE(max, at);
    at = buf.writeDoubleLE(sum, at);
    at = buf.writeUInt32LE(count % 4294967296, at);
    at = buf.writeUInt32LE(Math.floor(count / 4294967296), at);
    at = buf.writeDoubleLE(gauge, at);
    this.at = at;
  }

  /** `from`'s bytes from `start` to its end. */
  rest(from: Buffer, start: number): void {
    this.room(from.length - start);
    this.at += from.copy(this.buf, this.at, start);
  }

  f64(n: number): void {
    this.room(8);
    this.at = this.buf.writeDoubleLE(n, this.at);
  }

  /** A whole number below 2^64 (as a double: exact below 2^53). */
  u64(n: number): void {
    this.room(8);
    this.at = this.buf.writeUInt32LE(n % 4294967296, this.at);
    this.at = this.buf.writeUInt32LE(Math.floor(n / 4294967296), this.at);
  }

  u16(n: number): void {
    this.room(2);
    this.at = this.buf.writeUInt16LE(n, this.at);
  }

  /** LEB128 (RowBinary's lengths). */
  varint(n: number): void {
    this.room(10);
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.at++] = n;
  }

  /** What was written (a view of the writer's buffer). */
  data(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  private room(need: number): void {
    if (this.at + need <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + need));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}
