/**
 * 64-bit ids for rows (reference ingest §2.2): OTLP span ids are 8 bytes read big-endian.
 */

const MASK64 = (1n << 64n) - 1n;

/** 16 hex chars (or '' for "none") → uint64. */
export function hexToU64(hex: string): bigint {
  return hex === '' ? 0n : BigInt('0x' + hex);
}

/**
 * The id of the row split out of a span's `index`-th event. The reference draws a random id; we
 * derive it (a splitmix64 step over span id and index), which keeps normalisation pure and makes
 * a retried export produce the same rows, while still being spread like a random id. Only
 * uniqueness within the trace matters (rows are keyed by trace id + id).
 */
export function eventRowId(spanId: bigint, index: number): bigint {
  let z = (spanId + 0x9e3779b97f4a7c15n * BigInt(index + 1)) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  z ^= z >> 31n;
  return z === 0n ? 1n : z;
}

/** uint64 → 16 lowercase hex chars. */
export function u64ToHex(n: bigint): string {
  return n.toString(16).padStart(16, '0');
}
