import { lex } from '@lantern/shared';

/**
 * Facet and quick-filter state in a query given as its `|` parts (reference frontend §1.3.5,
 * §1.3.8), for the spans and the metrics query languages alike: the values a `where attr = v` or
 * `where attr in (a, b)` part selects, and the parts with that part replaced. Values are always
 * quoted when they are not plain numbers (the reference left quick-filter `in` lists bare).
 */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const partRe = (attr: string) => new RegExp(`^where\\s+${escapeRe(attr)}\\s+(=|==|in|like|not\\s+like)\\s+`, 'i');

/** A value as a query literal: numbers bare, already-quoted text kept, anything else JSON-quoted. */
export function quoteValue(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (value === '') return '""';
  if (/^(".*"|'.*')$/s.test(value)) return value;
  if (/^-?\d+(\.\d+)?$/.test(value) && String(parseFloat(value)) === value) return value;
  return JSON.stringify(value);
}

export function selectedValuesOf(parts: readonly string[], attr: string): string[] {
  const part = parts.find((p) => partRe(attr).test(p));
  if (!part) return [];
  const { tokens, error } = lex(part);
  if (error) return [];
  const values = tokens
    .filter(
      (t, i) => i >= 3 && (t.type === 'string' || t.type === 'number' || t.type === 'ident' || t.type === 'duration'),
    )
    .map((t) => t.value);
  const op = tokens[2]?.type === 'byte' ? '=' : String(tokens[2]?.value ?? '').toLowerCase();
  if (op === 'like' || op === 'not') return [];
  return values.slice(0, op === 'in' ? 10 : 1);
}

/** The parts with attr's part set to `values` (removed when none); `parts` itself when nothing changes. */
export function withValuesOf(parts: readonly string[], attr: string, values: readonly string[]): readonly string[] {
  const i = parts.findIndex((p) => partRe(attr).test(p));
  const next =
    values.length === 0
      ? undefined
      : values.length === 1
        ? `where ${attr} = ${quoteValue(values[0])}`
        : `where ${attr} in (${values.map(quoteValue).join(', ')})`;
  if (i === -1) return next ? [...parts, next] : parts;
  return next ? parts.map((p, j) => (j === i ? next : p)) : parts.filter((_, j) => j !== i);
}
