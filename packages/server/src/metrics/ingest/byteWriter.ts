/** UTF-8 lines into one growing buffer (`head fields tail \n`). */
export class ByteWriter {
  private buf: Buffer;
  private at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  line(head: string, fields: string, tail: string): void {
    // At most 3 bytes per UTF-16 unit.
    const need = 3 * (head.length + fields.length + tail.length) + 1;
    if (this.at + need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + need));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    const buf = this.buf;
    this.at += buf.write(head, this.at);
    this.at += buf.write(fields, this.at);
    this.at += buf.write(tail, this.at);
    buf[this.at++] = 10;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}
