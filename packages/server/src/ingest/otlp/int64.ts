import { OtlpDecodeError } from './decodeError';
import { typeName } from './ids';
import type { PbInt64 } from './protoRoot';

/**
 * 64-bit integers from both wire formats. Times are unsigned (fixed64) and become bigint ns;
 * AnyValue ints are signed and stay plain numbers when that is exact (most are), bigint otherwise.
 */

const TWO_32 = 4294967296;
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const INT_RE = /^-?\d+$/;

/** protobufjs fixed64 (or the wire readers' bigint) → bigint. Long keeps `high` as int32, so `>>> 0` makes it unsigned. */
export function pbUint64(v: PbInt64 | bigint): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'string') return BigInt(v);
  return (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
}

/** protobufjs int64 → number when exact, else bigint (two's complement via BigInt bit ops). */
export function pbInt64(v: PbInt64 | bigint): number | bigint {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return narrow(v);
  if (typeof v === 'string') return narrow(BigInt(v));
  // high*2^32 is exact for any int32 high; the sum is exact whenever the result is a safe integer.
  const n = v.high * TWO_32 + (v.low >>> 0);
  if (Number.isSafeInteger(n)) return n;
  return (BigInt(v.high | 0) << 32n) | BigInt(v.low >>> 0);
}

function narrow(b: bigint): number | bigint {
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

/** OTLP/JSON int64: a decimal string (the spec) or a number (what many clients send). */
export function jsonInt64(v: unknown, path: () => string): number | bigint {
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new OtlpDecodeError(`${path()}: expected an integer, got ${v}`);
    return v;
  }
  if (typeof v === 'string' && INT_RE.test(v)) {
    const b = BigInt(v);
    if (b >= INT64_MIN && b <= INT64_MAX) return narrow(b);
    throw new OtlpDecodeError(`${path()}: ${v} does not fit in int64`);
  }
  throw new OtlpDecodeError(`${path()}: expected an int64 (number or decimal string), got ${describe(v)}`);
}

/** OTLP/JSON fixed64 time in ns; absent means 0, as in proto3. */
export function jsonUint64(v: unknown, path: () => string): bigint {
  if (v === undefined || v === null) return 0n;
  let b: bigint | undefined;
  if (typeof v === 'number' && Number.isInteger(v)) b = BigInt(v);
  else if (typeof v === 'string' && INT_RE.test(v)) b = BigInt(v);
  if (b === undefined)
    throw new OtlpDecodeError(`${path()}: expected a uint64 (number or decimal string), got ${describe(v)}`);
  if (b < 0n || b > UINT64_MAX) throw new OtlpDecodeError(`${path()}: ${b} does not fit in uint64`);
  return b;
}

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v.slice(0, 64)) : typeName(v);
}
