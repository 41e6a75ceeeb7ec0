import { gunzip, inflate, brotliDecompress } from 'node:zlib';
import { promisify } from 'node:util';
import { AppError } from '../http/appError';
import { jsonNestingDepth } from './normalize/jsonDepth';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const brotliAsync = promisify(brotliDecompress);

/**
 * Decompresses an ingest body with the size limit applied to the inflated bytes: zlib stops at
 * `maxBytes` of output, so a gzip bomb is refused without being inflated in full.
 */
export async function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  if (enc === 'identity' || enc === '') {
    if (body.length > maxBytes) throw tooLarge(maxBytes);
    return body;
  }
  const inflateWith =
    enc === 'gzip' || enc === 'x-gzip'
      ? gunzipAsync
      : enc === 'deflate'
        ? inflateAsync
        : enc === 'br'
          ? brotliAsync
          : null;
  if (!inflateWith) {
    throw new AppError(
      'invalid_input',
      'unsupported_encoding',
      `Content-Encoding ${JSON.stringify(enc)} is not supported (use gzip, deflate or br)`,
    );
  }
  try {
    return await inflateWith(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw tooLarge(maxBytes);
    throw new AppError(
      'invalid_input',
      'bad_compression',
      `cannot decompress the ${enc} body: ${(err as Error).message}`,
    );
  }
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
  if (jsonNestingDepth(text) > 64)
    throw new AppError('invalid_input', 'json_too_deep', 'JSON body is nested deeper than 64 levels');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid_input', 'invalid_json', `body is not valid JSON: ${(err as Error).message}`);
  }
}
