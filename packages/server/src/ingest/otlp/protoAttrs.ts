import { OtlpDecodeError } from './decodeError';
import { WireReader, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT } from './protoWire';
import { MAX_VALUE_DEPTH, type OtlpAnyValue, type OtlpKeyValue } from './types';

/**
 * OTLP KeyValue and AnyValue messages read from the wire (protoWire.ts) into the shapes
 * convertAnyValue reads; shared by the trace and metrics readers.
 */

/**
 * Attribute keys by their length and a few bytes (ASCII keys of up to 64 bytes), so each is decoded
 * once, and the same string is used request after request (V8 then finds it interned when it is
 * stored as a property name). Bounded: cleared when full.
 */
const KEYS = new Map<number, string>();

export function readKeyValue(r: WireReader, end: number, depth: number): OtlpKeyValue {
  let key = '';
  let value: OtlpAnyValue | null = null;
  while (r.pos < end) {
    const tag = r.uint32(end);
    if (tag === ((1 << 3) | WIRE_LEN)) key = readKey(r, end);
    else if (tag === ((2 << 3) | WIRE_LEN)) value = readAnyValue(r, r.lengthEnd(end), depth);
    else r.skip(tag & 7, end);
  }
  return { key, value };
}

/** A key, decoded once when it is short ASCII (the common case). */
export function readKey(r: WireReader, end: number): string {
  const to = r.lengthEnd(end);
  const from = r.pos;
  r.pos = to;
  const len = to - from;
  if (len === 0) return '';
  const buf = r.buf;
  if (len > 64) return buf.utf8Slice(from, to);
  // Length and three of its bytes pick the slot; the comparison below decides.
  const h = len | (buf[from] << 7) | (buf[from + (len >> 1)] << 14) | (buf[to - 1] << 21);
  const cached = KEYS.get(h);
  if (cached !== undefined && cached.length === len) {
    let same = true;
    for (let i = 0; i < len; i++) {
      if (cached.charCodeAt(i) !== buf[from + i]) {
        same = false;
        break;
      }
    }
    if (same) return cached;
  }
  const s = buf.utf8Slice(from, to);
  // Only ASCII keys are kept: their characters are their bytes, which the comparison relies on.
  if (s.length === len) {
    if (KEYS.size >= 4096) KEYS.clear();
    KEYS.set(h, s);
  }
  return s;
}

/**
 * An AnyValue with the one field convertAnyValue would read (string, int, bool, double, array,
 * kvlist, bytes, in that order of precedence) when a sender set several. Arrays and kvlists
 * deeper than MAX_VALUE_DEPTH are refused (the span, or the request for resource attributes).
 */
export function readAnyValue(r: WireReader, end: number, depth: number): OtlpAnyValue {
  let str: string | null = null;
  let int: number | bigint | null = null;
  let bool: boolean | null = null;
  let dbl: number | null = null;
  let arr: OtlpAnyValue[] | null = null;
  let kvs: OtlpKeyValue[] | null = null;
  let bytes: Uint8Array | null = null;
  while (r.pos < end) {
    const tag = r.uint32(end);
    switch (tag) {
      case (1 << 3) | WIRE_LEN:
        str = r.string(end);
        break;
      case (2 << 3) | WIRE_VARINT:
        bool = r.uint32(end) !== 0;
        break;
      case (3 << 3) | WIRE_VARINT:
        int = r.int64(end);
        break;
      case (4 << 3) | WIRE_FIXED64:
        dbl = r.double(end);
        break;
      case (5 << 3) | WIRE_LEN: {
        if (depth >= MAX_VALUE_DEPTH) throw nestedTooDeep();
        const to = r.lengthEnd(end);
        arr = [];
        while (r.pos < to) {
          const t = r.uint32(to);
          if (t === ((1 << 3) | WIRE_LEN)) arr.push(readAnyValue(r, r.lengthEnd(to), depth + 1));
          else r.skip(t & 7, to);
        }
        break;
      }
      case (6 << 3) | WIRE_LEN: {
        if (depth >= MAX_VALUE_DEPTH) throw nestedTooDeep();
        const to = r.lengthEnd(end);
        kvs = [];
        while (r.pos < to) {
          const t = r.uint32(to);
          if (t === ((1 << 3) | WIRE_LEN)) kvs.push(readKeyValue(r, r.lengthEnd(to), depth + 1));
          else r.skip(t & 7, to);
        }
        break;
      }
      case (7 << 3) | WIRE_LEN: {
        const to = r.lengthEnd(end);
        bytes = r.buf.subarray(r.pos, to);
        r.pos = to;
        break;
      }
      default:
        r.skip(tag & 7, end);
    }
  }
  if (str !== null) return { stringValue: str };
  if (int !== null) return { intValue: int };
  if (bool !== null) return { boolValue: bool };
  if (dbl !== null) return { doubleValue: dbl };
  if (arr !== null) return { arrayValue: { values: arr } };
  if (kvs !== null) return { kvlistValue: { values: kvs } };
  if (bytes !== null) return { bytesValue: bytes };
  return {};
}

export function nestedTooDeep(): OtlpDecodeError {
  return new OtlpDecodeError(`attributes: values nest deeper than ${MAX_VALUE_DEPTH} levels`);
}
