import { createRequire } from 'node:module';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { compressFrameSync } from 'lz4-napi';
import { compressSync, Compressor } from 'snappy';

/**
 * Real encoders for every Content-Encoding the ingest accepts, to build test bodies the way
 * senders do: Node's zlib (gzip, deflate, zlib, br), libzstd compiled to JavaScript (zstd-codec;
 * streaming, so frames state no content size, like Go's encoder in the Collector), the snappy
 * package (block, and framed with its framing-format compressor) and lz4_flex (lz4-napi; LZ4
 * frame format, what the Collector's `lz4` is).
 */
export const BODY_ENCODINGS = [
  'gzip',
  'deflate',
  'deflate-raw',
  'zlib',
  'br',
  'zstd',
  'snappy',
  'snappy-framed',
  'x-snappy-framed',
  'lz4',
] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** The Content-Encoding header each of BODY_ENCODINGS is sent with. */
export const contentEncodingOf = (enc: BodyEncoding): string =>
  enc === 'deflate-raw' ? 'deflate' : enc === 'snappy-framed' ? 'snappy' : enc;

interface ZstdStreaming {
  compressChunks(chunks: Uint8Array[], sizeHint: number, level: number): Uint8Array;
}
let zstd: Promise<ZstdStreaming> | undefined;

/** `body` compressed as `enc`. */
export async function encodeBody(enc: BodyEncoding, body: Buffer): Promise<Buffer> {
  switch (enc) {
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
    case 'zlib':
      return deflateSync(body);
    case 'deflate-raw':
      return deflateRawSync(body);
    case 'br':
      return brotliCompressSync(body);
    case 'zstd': {
      const z = await zstdEncoder();
      const chunks = Array.from({ length: Math.max(1, Math.ceil(body.length / (1 << 20))) }, (_, i) =>
        body.subarray(i << 20, (i + 1) << 20),
      );
      return Buffer.from(z.compressChunks(chunks, body.length, 3));
    }
    case 'snappy':
      return compressSync(body);
    case 'snappy-framed':
    case 'x-snappy-framed': {
      const c = new Compressor();
      const head = c.update(body);
      return Buffer.concat([head, await c.finish()]);
    }
    case 'lz4':
      return compressFrameSync(body);
  }
}

/** libzstd's JavaScript build starts asynchronously, once. */
function zstdEncoder(): Promise<ZstdStreaming> {
  zstd ??= new Promise((resolve) => {
    const require = createRequire(import.meta.url);
    const { ZstdCodec } = require('zstd-codec') as {
      ZstdCodec: { run(cb: (z: { Streaming: new () => ZstdStreaming }) => void): void };
    };
    ZstdCodec.run((z) => resolve(new z.Streaming()));
  });
  return zstd;
}
