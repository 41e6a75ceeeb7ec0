/**
 * UTF-8-safe truncation (reference ingest §2.10): a string longer than N bytes is cut to N−3
 * bytes on a code-point boundary and `...` is appended, so stored columns stay bounded without
 * ever splitting a character.
 */

/** `name` and `event_name` columns. */
export const NAME_MAX_BYTES = 80;
/** `display_name` and `system` columns. */
export const DISPLAY_NAME_MAX_BYTES = 200;
export const SYSTEM_MAX_BYTES = 200;
/** Each stringified value in `attr_values` (applied when the index row is encoded). */
export const ATTR_VALUE_MAX_BYTES = 500;

export function truncateUtf8(s: string, maxBytes: number): string {
  // Every UTF-16 code unit is at most 3 UTF-8 bytes: short strings need no counting.
  if (s.length * 3 <= maxBytes) return s;
  if (Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const budget = maxBytes - 3;
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.codePointAt(i)!;
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (bytes + n > budget) break;
    bytes += n;
    i += c >= 0x10000 ? 2 : 1;
  }
  return s.slice(0, i) + '...';
}
