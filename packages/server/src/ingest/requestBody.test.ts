import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { compressFrameSync } from 'lz4-napi';
import { compressSync, Compressor } from 'snappy';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/appError';
import { decodeBody, hasZlibHeader } from './requestBody';

const body = Buffer.from(Array.from({ length: 2000 }, (_, i) => `record ${i}\n`).join(''));
// `zstd --no-content-size` of FIXTURE (zstd CLI 1.5)
const FIXTURE = 'lantern lantern lantern lz4 frame fixture, lantern lantern lantern\n';
const ZSTD_FIXTURE =
  '28b52ffd040055010004026c616e7465726e207a34206672616d6520666978747572652c616e7465726e0a02008df2d6e6c205b79ade0b';

async function framedSnappy(data: Buffer): Promise<Buffer> {
  const c = new Compressor();
  return Buffer.concat([c.update(data), await c.finish()]);
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('decodeBody', () => {
  it('accepts every encoding the Collector sends, and br', async () => {
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(body)],
      ['x-gzip', gzipSync(body)],
      ['deflate', deflateSync(body)], // zlib-wrapped, as HTTP and the Collector mean it
      ['deflate', deflateRawSync(body)], // raw, as some clients send it
      ['zlib', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['snappy', compressSync(body)], // block
      ['snappy', await framedSnappy(body)], // framed, as Collectors before x-snappy-framed sent it
      ['x-snappy-framed', await framedSnappy(body)],
      ['lz4', compressFrameSync(body)],
      ['ZSTD ', Buffer.from(ZSTD_FIXTURE, 'hex')],
    ];
    for (const [enc, compressed] of cases) {
      const out = await decodeBody(compressed, enc, 1 << 20);
      expect(out.toString(), enc).toBe(enc.trim() === 'ZSTD' ? FIXTURE : body.toString());
    }
  });

  it('reads a zlib header only where there is one', () => {
    expect(hasZlibHeader(deflateSync(body))).toBe(true);
    expect(hasZlibHeader(deflateRawSync(body))).toBe(false);
    expect(hasZlibHeader(Buffer.from([0x78]))).toBe(false);
  });

  it('answers a corrupt body of each encoding with bad_compression', async () => {
    for (const enc of ['gzip', 'deflate', 'zlib', 'br', 'zstd', 'snappy', 'x-snappy-framed', 'lz4']) {
      const err = await refusal(decodeBody(Buffer.from('definitely not compressed \xff\xff'), enc, 1 << 20));
      expect(err.code, enc).toBe('bad_compression');
      expect(err.type).toBe('invalid_input');
      expect(err.message).toContain(`cannot decompress the ${enc} body`);
    }
  });

  it('answers an unknown encoding with the list of supported ones', async () => {
    const err = await refusal(decodeBody(body, 'compress', 1 << 20));
    expect(err.code).toBe('unsupported_encoding');
    expect(err.message).toBe(
      'Content-Encoding "compress" is not supported (use gzip, x-gzip, deflate, zlib, br, zstd, snappy, x-snappy-framed, lz4 or identity)',
    );
    expect((await refusal(decodeBody(body, 'constructor', 1 << 20))).code).toBe('unsupported_encoding');
  });

  it('answers a body past the limit after decompression with request_too_large, for each encoding', async () => {
    const big = Buffer.alloc(3 << 20);
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(big)],
      ['deflate', deflateRawSync(big)],
      ['zlib', deflateSync(big)],
      ['br', brotliCompressSync(big)],
      ['snappy', compressSync(big)],
      ['snappy', await framedSnappy(big)],
      ['lz4', compressFrameSync(big)],
    ];
    for (const [enc, compressed] of cases) {
      const err = await refusal(decodeBody(compressed, enc, 1 << 20));
      expect(err.code, enc).toBe('request_too_large');
      expect(err.type).toBe('too_large');
    }
  });
});
