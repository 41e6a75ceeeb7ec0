import { OtlpDecodeError } from './decodeError';

/**
 * Trace and span ids: bytes in, lowercase hex out, with the length checks both decoders share.
 * OTLP requires 16-byte trace ids and 8-byte span ids, and calls all-zero ids invalid; a span that
 * breaks this cannot be placed in a trace, so the request is refused rather than stored wrong.
 */

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, '0'));

/** Byte-table hex: measured no slower than Buffer#toString('hex') for 8/16-byte ids. */
export function bytesToHex(bytes: Uint8Array | null | undefined): string {
  if (!bytes) return '';
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

function isAllZeroHex(hex: string): boolean {
  for (let i = 0; i < hex.length; i++) if (hex.charCodeAt(i) !== 48) return false;
  return true;
}

export type IdKind = 'trace' | 'span' | 'parent';

const BYTE_LEN: Record<IdKind, number> = { trace: 16, span: 8, parent: 8 };

/**
 * The id if `hex` is a valid id of this kind; '' for a parent that is absent or all zeros (some
 * exporters send zeros for "no parent"); null when invalid. Trace and span ids must be present
 * and non-zero. Split from the error so the hot path builds no message or path strings.
 */
export function validHexId(hex: string, kind: IdKind): string | null {
  const want = BYTE_LEN[kind] * 2;
  if (hex.length === want && !isAllZeroHex(hex)) return hex;
  if (kind === 'parent' && (hex === '' || hex.length === want)) return '';
  return null;
}

export function idError(hex: string, kind: IdKind, path: string): OtlpDecodeError {
  const want = BYTE_LEN[kind];
  if (hex.length === want * 2) return new OtlpDecodeError(`${path}: an all-zero id is invalid`);
  const got = hex.length === 0 ? 'nothing' : `${hex.length / 2} bytes`;
  return new OtlpDecodeError(`${path}: expected a ${want}-byte id (${want * 2} hex chars), got ${got}`);
}

/** validHexId, throwing OtlpDecodeError naming `path()` when invalid. */
export function checkHexId(hex: string, kind: IdKind, path: () => string): string {
  const id = validHexId(hex, kind);
  if (id === null) throw idError(hex, kind, path());
  return id;
}

const HEX_RE = /^[0-9a-fA-F]*$/;
const BASE64_RE = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * An id from OTLP/JSON. The spec says hex, but protobuf-JSON encoders (the canonical JSON mapping
 * of `bytes`) produce base64, so both are accepted, as the reference does (ingest §1.4). Hex wins
 * when the text has exactly the hex length for this id kind (base64 of the same bytes is shorter).
 */
export function jsonIdToHex(value: unknown, kind: IdKind, path: () => string): string {
  if (value === undefined || value === null || value === '') return checkHexId('', kind, path);
  if (typeof value !== 'string') throw new OtlpDecodeError(`${path()}: expected a hex string, got ${typeName(value)}`);
  const want = BYTE_LEN[kind];
  if (value.length === want * 2 && HEX_RE.test(value)) return checkHexId(value.toLowerCase(), kind, path);
  if (value.length <= 4 * Math.ceil(want / 3) && BASE64_RE.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === want) return checkHexId(bytesToHex(bytes), kind, path);
  }
  throw new OtlpDecodeError(`${path()}: expected ${want * 2} hex chars, got ${JSON.stringify(value.slice(0, 64))}`);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/**
 * An id that may be absent (log records need not belong to a trace): '' when absent or all
 * zeros, the hex when it has `bytes` bytes, null when it has the wrong length.
 */
export function optionalHexId(hex: string, bytes: number): string | null {
  if (hex === '' || (hex.length === bytes * 2 && isAllZeroHex(hex))) return '';
  return hex.length === bytes * 2 ? hex : null;
}

/** optionalHexId for OTLP/JSON text (hex, or base64 as protobuf-JSON encoders write it). */
export function optionalJsonId(value: unknown, bytes: number): string | null {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string') return null;
  if (value.length === bytes * 2 && HEX_RE.test(value)) return optionalHexId(value.toLowerCase(), bytes);
  if (value.length <= 4 * Math.ceil(bytes / 3) && BASE64_RE.test(value)) {
    const b = Buffer.from(value, 'base64');
    if (b.length === bytes) return optionalHexId(bytesToHex(b), bytes);
  }
  return null;
}
