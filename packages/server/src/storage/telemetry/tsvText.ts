import type { AttrValue } from './spanRow';

/**
 * Text escaping for the TabSeparated lines the stores insert (span rows, datapoint lines): TSV
 * fields, string literals inside array fields, and JSON values inside a field.
 */

/** A character that TSV, an array literal's quotes or JSON escapes (lone surrogates included, for JSON). */
// eslint-disable-next-line no-control-regex -- JSON escapes exactly the controls U+0000-U+001F
export const ANY_SPECIAL = /[\\'"\u0000-\u001f\ud800-\udfff]/;
/** A character JSON.stringify escapes in a string. */
// eslint-disable-next-line no-control-regex -- JSON escapes exactly the controls U+0000-U+001F
const JSON_SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(s), TSV-escaped. */
export function jsonText(s: string): string {
  return JSON_SPECIAL.test(s) ? tsvJson(JSON.stringify(s)) : `"${s}"`;
}

export function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** JSON.stringify of a value that is not a string, TSV-escaped. */
export function jsonValue(v: AttrValue): string {
  if (typeof v === 'number') return jsonNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  return tsvJson(JSON.stringify(v));
}

const TSV_SPECIAL = /[\\\t\n\r\0]/;
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/** A TabSeparated field: backslash, tab, newline, CR and NUL escaped. */
export function tsv(s: string): string {
  return TSV_SPECIAL.test(s) ? s.replace(/[\\\t\n\r\0]/g, (c) => TSV_ESCAPES[c]) : s;
}

/** JSON text has its controls escaped already: only its backslashes need doubling. */
export function tsvJson(json: string): string {
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

const QUOTED_SPECIAL = /[\\'\t\n\r\0]/;
const QUOTED_ESCAPES: Record<string, string> = { ...TSV_ESCAPES, "'": "\\'" };

/** A string inside an array literal of a TabSeparated field: `'...'` with \ ' and controls escaped. */
export function quoted(s: string): string {
  return QUOTED_SPECIAL.test(s) ? `'${s.replace(/[\\'\t\n\r\0]/g, (c) => QUOTED_ESCAPES[c])}'` : `'${s}'`;
}
