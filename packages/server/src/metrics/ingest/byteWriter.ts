/**
 * Lines into one growing buffer (`head rest fields tail \n`): head and tail as UTF-8 bytes (kept
 * per series), rest and fields ASCII text (numbers, tabs, brackets: written a byte per character).
 */
export class ByteWriter {
  private buf: Buffer;
  private at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  line(head: Uint8Array, rest: string, fields: string, tail: Uint8Array): void {
    const need = head.length + rest.length + fields.length + tail.length + 1;
    if (this.at + need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + need));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    // Copying the series' bytes and writing the ASCII parts as Latin-1 (without Buffer#write's
    // argument handling) instead of encoding three strings per sample (docs/benchmarks.md,
    // "Remote write, fourth round").
    const buf = this.buf as Buffer & { latin1Write(text: string, offset: number): number };
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
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}
