import { AppError, type AppErrorType } from '../http/appError';
import { encodeSpans, type EncodedSpans } from '../storage/telemetry/spanRowEncoding';
import { normalizeTraces } from './normalize';
import { decodeTracesJson, decodeTracesProto, OtlpDecodeError } from './otlp';
import { parseJsonBody, type BodyFormat } from './requestBody';

/**
 * The CPU-heavy part of ingest, from decoded request body to rows encoded for storage: OTLP
 * decode, normalisation, row encoding. Pure and synchronous, so it runs the same in a worker
 * thread (see preparePool.ts) or inline.
 */
export interface PrepareTask {
  signal: 'traces';
  format: BodyFormat;
  body: Uint8Array;
  project: { projectId: number; groupByEnv: boolean; groupFuncsByService: boolean };
}

/**
 * Bad input comes back as a value rather than a thrown error, so it survives the trip between
 * threads with its type and code.
 */
export type PrepareResult =
  | { ok: true; rows: number; index: Uint8Array; data: Uint8Array }
  | { ok: false; type: AppErrorType; code: string; message: string };

export function prepare(task: PrepareTask): PrepareResult {
  try {
    const body = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    const request = task.format === 'protobuf' ? decodeTracesProto(body) : decodeTracesJson(parseJsonBody(body));
    const { rows, index, data } = encodeSpans(normalizeTraces(request, task.project));
    return { ok: true, rows, index, data };
  } catch (err) {
    if (err instanceof OtlpDecodeError) return { ok: false, type: 'invalid_input', code: 'invalid_otlp', message: err.message };
    if (err instanceof AppError) return { ok: false, type: err.type, code: err.code, message: err.message };
    throw err;
  }
}

/** The prepared rows, or the AppError the request is answered with. */
export function preparedSpans(result: PrepareResult): EncodedSpans {
  if (!result.ok) throw new AppError(result.type, result.code, result.message);
  return { rows: result.rows, index: toBuffer(result.index), data: toBuffer(result.data) };
}

/** Typed arrays lose their Buffer class between threads; this wraps the same memory again. */
function toBuffer(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}
