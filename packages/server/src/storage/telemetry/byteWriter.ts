/**
 * Datapoint rows into one growing buffer (the fold's written rows, DatapointFold.take, as RowBinary:
 * datapointRowBinary.ts): a series' parts as bytes (kept per series), the time and values as
 * numbers (docs/benchmarks.md, "Remote write, fourth round" to "sixth round").
 */
export class ByteWriter {
  private buf: Buffer;
  private view: DataView;
  private at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
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
    bin: Uint8Array,
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
    const view = this.view;
    let at = this.at;
    // Byte loops: a series' parts are tens of bytes, and Buffer#copy makes a view of each part.
    for (let i = 0; i < post; i++) buf[at++] = bin[i];
    view.setUint32(at, time, true);
    at += 4;
    for (let i = post; i < tail; i++) buf[at++] = bin[i];
    view.setFloat64(at, min, true);
    view.setFloat64(at + 8, max, true);
    view.setFloat64(at + 16, sum, true);
    view.setUint32(at + 24, count % 4294967296, true);
    view.setUint32(at + 28, Math.floor(count / 4294967296), true);
    view.setFloat64(at + 32, gauge, true);
    this.at = at + 40;
  }

  /** `from`'s bytes from `start` to its end. */
  rest(from: Uint8Array, start: number): void {
    this.room(from.length - start);
    const buf = this.buf;
    let at = this.at;
    for (let i = start; i < from.length; i++) buf[at++] = from[i];
    this.at = at;
  }

  f64(n: number): void {
    this.room(8);
    this.view.setFloat64(this.at, n, true);
    this.at += 8;
  }

  /** A whole number below 2^64 (as a double: exact below 2^53). */
  u64(n: number): void {
    this.room(8);
    this.view.setUint32(this.at, n % 4294967296, true);
    this.view.setUint32(this.at + 4, Math.floor(n / 4294967296), true);
    this.at += 8;
  }

  u32(n: number): void {
    this.room(4);
    this.view.setUint32(this.at, n, true);
    this.at += 4;
  }

  /** A whole number of up to 64 bits given as a bigint (a series hash). */
  bigU64(n: bigint): void {
    this.room(8);
    this.view.setBigUint64(this.at, n, true);
    this.at += 8;
  }

  /** RowBinary's String: its UTF-8 length (LEB128), then the bytes. */
  string(text: string): void {
    const n = Buffer.byteLength(text);
    this.varint(n);
    this.room(n);
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /** RowBinary's Array(String). */
  strings(items: readonly string[]): void {
    this.varint(items.length);
    for (const item of items) this.string(item);
  }

  u16(n: number): void {
    this.room(2);
    this.buf[this.at++] = n & 0xff;
    this.buf[this.at++] = n >>> 8;
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

  /** Bytes written so far. */
  get length(): number {
    return this.at;
  }

  /** What was written (a view of the writer's buffer). */
  data(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  /** Starts again at the front of the same buffer (a scratch writer reused). */
  reset(): void {
    this.at = 0;
  }

  private room(need: number): void {
    if (this.at + need <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + need));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
    this.view = new DataView(bigger.buffer, bigger.byteOffset, bigger.length);
  }
}
