import { lex } from '@lantern/shared';
import { joinQuery, quoteValue, queryParts } from './defaultQueries';

/**
 * Facet and quick-filter state in the query (reference frontend §1.3.5, §1.3.8): the values a
 * `where attr = v` or `where attr in (a, b)` part selects, and the query with that part replaced.
 * Values are always quoted (the reference left quick-filter `in` lists bare; quoting is safer).
 */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const partRe = (attr: string) => new RegExp(`^where\\s+${escapeRe(attr)}\\s+(=|==|in|like|not\\s+like)\\s+`, 'i');

export function selectedValues(query: string, attr: string): string[] {
  const part = queryParts(query).find((p) => partRe(attr).test(p));
  if (!part) return [];
  const { tokens, error } = lex(part);
  if (error) return [];
  const values = tokens.filter((t, i) => i >= 3 && (t.type === 'string' || t.type === 'number' || t.type === 'ident' || t.type === 'duration')).map((t) => t.value);
  const op = tokens[2]?.type === 'byte' ? '=' : String(tokens[2]?.value ?? '').toLowerCase();
  if (op === 'like' || op === 'not') return [];
  return values.slice(0, op === 'in' ? 10 : 1);
}

export function withValues(query: string, attr: string, values: string[]): string {
  const parts = queryParts(query);
  const i = parts.findIndex((p) => partRe(attr).test(p));
  const next = values.length === 0 ? undefined : values.length === 1 ? `where ${attr} = ${quoteValue(values[0])}` : `where ${attr} in (${values.map(quoteValue).join(', ')})`;
  if (i === -1) return next ? joinQuery([...parts, next]) : query;
  if (next) parts[i] = next;
  else parts.splice(i, 1);
  return joinQuery(parts);
}
