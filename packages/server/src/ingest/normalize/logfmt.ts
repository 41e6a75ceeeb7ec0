/**
 * logfmt parameters in a log message (reference ingest §2.6): `key=value` tokens, where a value is
 * either a double-quoted string (JSON escapes) or runs to the next whitespace. Keys are ASCII
 * letters, digits, `.`, `_` and `-` (the reference allows only letters, digits and `.`, which
 * misses the common `user_id=42`). A malformed quoted value is skipped, never an error.
 */
const PARAM_RE = /(?:^|[\s,;])([A-Za-z][A-Za-z0-9._-]*)=("(?:[^"\\]|\\.)*"|[^\s"]*)/g;

export function logfmtParams(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text.indexOf('=') < 0) return out;
  for (const m of text.matchAll(PARAM_RE)) {
    const key = m[1];
    let value = m[2];
    if (value.startsWith('"')) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        continue;
      }
    }
    if (key === '__proto__') continue;
    out[key] = value;
  }
  return out;
}
