/**
 * Trace ids travel as 32 lowercase hex characters. Users paste them as 32 hex, as a dashed UUID,
 * or as a 16-hex 64-bit id (the low half, as some logging libraries print it).
 * Returns null for anything else.
 */
export function normalizeTraceId(input: string): string | null {
  const s = input.trim().toLowerCase();
  if (/^[0-9a-f]{32}$/.test(s)) return s;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(s)) return s.replaceAll('-', '');
  if (/^[0-9a-f]{16}$/.test(s)) return '0'.repeat(16) + s;
  return null;
}

/** Whether the top-bar search should jump to the trace page rather than search spans (spec 2.2). */
export function looksLikeTraceId(input: string): boolean {
  const s = input.trim().toLowerCase();
  return /^[0-9a-f]{32}$/.test(s) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(s);
}
