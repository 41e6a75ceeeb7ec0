import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { jsonNestingDepth, MAX_BODY_DEPTH } from '@lantern/shared';
import { AppError } from '../http/appError';
import { InflatedTooLarge } from './compression/limit';
import { decodeSnappyBlock, decodeSnappyFramed, isFramedSnappy } from './compression/snappy';
import { decodeZstd } from './compression/zstd';
import { decodeLz4Frames } from './compression/lz4';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const inflateRawAsync = promisify(inflateRaw);
const brotliAsync = promisify(brotliDecompress);

type Decoder = (body: Buffer, maxBytes: number) => Promise<Buffer> | Buffer;

const zlibCapped =
  (fn: (buf: Buffer, opts: ZlibOptions) => Promise<Buffer>): Decoder =>
  (body, maxBytes) =>
    fn(body, { maxOutputLength: maxBytes });

/**
 * `deflate` is zlib-wrapped deflate in HTTP (RFC 9110 §8.4.1.2) and what the Collector sends,
 * but some clients send raw deflate under that name: a body with a valid zlib header (RFC 1950
 * §2.2) is inflated as zlib, falling back to raw deflate when that fails; any other as raw.
 */
async function inflateEither(body: Buffer, maxBytes: number): Promise<Buffer> {
  if (!hasZlibHeader(body)) return inflateRawAsync(body, { maxOutputLength: maxBytes });
  try {
    return await inflateAsync(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if (isZlibTooLarge(err)) throw err;
    return inflateRawAsync(body, { maxOutputLength: maxBytes });
  }
}

export function hasZlibHeader(body: Uint8Array): boolean {
  if (body.length < 2) return false;
  const cmf = body[0];
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | body[1]) % 31 === 0;
}

/**
 * Content-Encoding values accepted on the HTTP ingest paths: what the OpenTelemetry Collector's
 * confighttp client can send (gzip, zlib, deflate, zstd, snappy, x-snappy-framed, lz4) plus br.
 */
const DECODERS: Record<string, Decoder> = {
  gzip: zlibCapped(gunzipAsync),
  'x-gzip': zlibCapped(gunzipAsync),
  deflate: inflateEither,
  zlib: zlibCapped(inflateAsync),
  br: zlibCapped(brotliAsync),
  zstd: decodeZstd,
  // Older Collectors sent the framed format under `snappy` (see compression/snappy.ts).
  snappy: (body, maxBytes) =>
    isFramedSnappy(body) ? decodeSnappyFramed(body, maxBytes) : decodeSnappyBlock(body, maxBytes),
  'x-snappy-framed': decodeSnappyFramed,
  lz4: decodeLz4Frames,
};

export const SUPPORTED_ENCODINGS = Object.keys(DECODERS);

/**
 * Decompresses an ingest body with the size limit applied to the inflated bytes: every decoder
 * stops at `maxBytes` of output (or refuses a stated size above it before decoding), so a
 * compression bomb is refused with 413 without being inflated in full. A body that is not valid
 * in its encoding is a 400 `bad_compression`.
 */
export async function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  if (enc === 'identity' || enc === '') {
    if (body.length > maxBytes) throw tooLarge(maxBytes);
    return body;
  }
  const decode = Object.hasOwn(DECODERS, enc) ? DECODERS[enc] : undefined;
  if (!decode) {
    throw new AppError(
      'invalid_input',
      'unsupported_encoding',
      `Content-Encoding ${JSON.stringify(enc)} is not supported (use ${SUPPORTED_ENCODINGS.join(', ')} or identity)`,
    );
  }
  try {
    return await decode(body, maxBytes);
  } catch (err) {
    if (err instanceof InflatedTooLarge || isZlibTooLarge(err)) throw tooLarge(maxBytes);
    throw new AppError(
      'invalid_input',
      'bad_compression',
      `cannot decompress the ${enc} body: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}

function isZlibTooLarge(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('too_large', 'request_too_large', `request body exceeds ${maxBytes} bytes after decompression`);
}

export type BodyFormat = 'protobuf' | 'json';

export function bodyFormat(contentType: string | undefined): BodyFormat {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (ct === 'application/x-protobuf' || ct === 'application/protobuf' || ct === 'application/vnd.google.protobuf')
    return 'protobuf';
  if (ct === 'application/json') return 'json';
  throw new AppError(
    'invalid_input',
    'unsupported_content_type',
    `Content-Type ${JSON.stringify(ct)} is not supported (use application/x-protobuf or application/json)`,
  );
}

/** JSON.parse with a clear 400 instead of a SyntaxError, and a depth cap against stack abuse. */
export function parseJsonBody(buf: Buffer): unknown {
  const text = buf.toString('utf8');
  if (jsonNestingDepth(text) > MAX_BODY_DEPTH)
    throw new AppError('invalid_input', 'json_too_deep', `JSON body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid_input', 'invalid_json', `body is not valid JSON: ${(err as Error).message}`);
  }
}
