/**
 * Datapoint lines into one growing buffer (the fold's written rows, DatapointFold.take): a series'
 * UTF-8 parts as bytes (kept per series), the ASCII parts (numbers, tabs, brackets, hashes,
 * instruments) written as Latin-1 (without Buffer#write's argument handling) instead of encoding
 * strings per line (docs/benchmarks.md, "Remote write, fourth round" and "fifth round").
 */
export class ByteWriter {
  private buf: Buffer;
  private at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** `head rest fields tail \n`. */
  line(head: Uint8Array, rest: string, fields: string, tail: Uint8Array): void {
    this.room(head.length + rest.length + fields.length + tail.length + 1);
    const buf = this.buf as Latin1Buffer;
    let at = this.at;
    buf.set(head, at);
    at += head.length;
    at += buf.latin1Write(rest, at);
    at += buf.latin1Write(fields, at);
    buf.set(tail, at);
    at += tail.length;
    buf[at++] = 10;
    this.at = at;
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** Text of one byte per character (ASCII). */
  latin1(text: string): void {
    this.room(text.length);
    this.at += (this.buf as Latin1Buffer).latin1Write(text, this.at);
  }

  /** Any text, as UTF-8. */
  utf8(text: string): void {
    this.room(Buffer.byteLength(text));
    this.at += this.buf.write(text, this.at, 'utf8');
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

type Latin1Buffer = Buffer & { latin1Write(text: string, offset: number): number };
