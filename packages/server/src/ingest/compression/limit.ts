/**
 * Thrown by the body decoders when the inflated bytes would pass the request limit; the caller
 * answers 413. Any other error from a decoder means the body is not valid in its encoding (400).
 */
export class InflatedTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`inflated body exceeds ${maxBytes} bytes`);
  }
}

/** Output collected in chunks, refusing to grow past `maxBytes`. */
export class CappedOutput {
  private readonly chunks: Uint8Array[] = [];
  length = 0;
  constructor(readonly maxBytes: number) {}

  /** Reserves room for `n` more bytes, or throws InflatedTooLarge. */
  reserve(n: number): void {
    if (this.length + n > this.maxBytes) throw new InflatedTooLarge(this.maxBytes);
  }

  push(chunk: Uint8Array): void {
    this.reserve(chunk.length);
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}
