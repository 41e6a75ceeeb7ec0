import type { Filter } from './ast';
import { lex, LexError, type Token } from './lexer';
import { parseMetricsQuery, splitParts } from './parser';
import { printFilter } from './print';

/**
 * Dashboard variables in metrics queries (issue 41, Grafana's `$var`): a query names a variable as
 * a filter's value (`where service.name = $service`, `in ($service)`) or in a grouping
 * (`group by $group`), and the dashboard's chosen values replace it before the query is compiled.
 *
 * - One value: `service.name = "checkout"`; several: `service.name in ("a", "b")` (`!=` and `not in`
 *   become `not in (...)`); a regex filter (`~`, `!~`) matches any of them.
 * - All (or nothing picked): the filter drops. With `or` in the list, AND binds tighter: a group of
 *   terms left with none is true, so the whole `where` part drops.
 * - In a grouping the values are attribute names; All drops the name (a grouping left empty drops).
 *
 * A `$name` that is not a given variable stays as written (a metric alias, or the query's own error).
 */
export const ALL_VALUE = '$__all';
/** A variable's name: what follows `$` in a query and `var-` in the address. */
export const VARIABLE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ATTR_NAME_RE = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** The chosen values by variable name; `'all'` for All. */
export type VariableValues = ReadonlyMap<string, readonly string[] | 'all'>;

/**
 * The `var` query parameter of the metrics calls: `name=value`, repeated for several values;
 * `name=$__all` for All. Entries that name no variable are ignored.
 */
export function parseVariableParams(list: readonly string[]): Map<string, string[] | 'all'> {
  const out = new Map<string, string[] | 'all'>();
  for (const entry of list) {
    const eq = entry.indexOf('=');
    const name = eq < 0 ? entry : entry.slice(0, eq);
    if (!VARIABLE_NAME_RE.test(name)) continue;
    const value = eq < 0 ? ALL_VALUE : entry.slice(eq + 1);
    const had = out.get(name);
    if (value === ALL_VALUE || had === 'all') out.set(name, 'all');
    else out.set(name, [...(had ?? []), value]);
  }
  return out;
}

/** `values` as `var` parameters (the inverse of parseVariableParams). */
export function variableParams(values: VariableValues): string[] {
  return [...values].flatMap(([name, v]) => (v === 'all' ? [`${name}=${ALL_VALUE}`] : v.map((x) => `${name}=${x}`)));
}

/** `query` with the variables' values in place of `$name` (see the rules above). */
export function substituteVariables(query: string, values: VariableValues): string {
  if (values.size === 0 || !query.includes('$')) return query;
  const parts = splitParts(query).map((p) => substituteGrouping(p.text, values));
  const out: string[] = [];
  for (const text of parts) {
    if (text === null) continue;
    const where = substituteWhere(text, values);
    if (where !== null) out.push(where);
  }
  return out.join(' | ');
}

const chosen = (values: VariableValues, token: string): readonly string[] | 'all' | undefined =>
  token.startsWith('$') ? values.get(token.slice(1)) : undefined;

/** Grouping names (`group by a, $g`) in one part; null when the part was only a grouping now empty. */
function substituteGrouping(text: string, values: VariableValues): string | null {
  let tokens: Token[];
  try {
    tokens = lex(text, 0);
  } catch (err) {
    if (err instanceof LexError) return text;
    throw err;
  }
  const word = (t: Token | undefined, w: string) => t?.kind === 'ident' && t.text.toLowerCase() === w;
  const by = tokens.findIndex((t, i) => word(tokens[i - 1], 'group') && word(t, 'by'));
  if (by < 0) return text;
  // The names after `by`: ident (, ident)*.
  const names: Token[] = [];
  let i = by + 1;
  while (tokens[i]?.kind === 'ident') {
    names.push(tokens[i]);
    if (tokens[i + 1]?.kind === 'op' && tokens[i + 1].text === ',') i += 2;
    else break;
  }
  if (!names.some((n) => chosen(values, n.text) !== undefined)) return text;
  const kept = names.flatMap((n) => {
    const v = chosen(values, n.text);
    if (v === undefined) return [n.text];
    return v === 'all' ? [] : v.filter((a) => ATTR_NAME_RE.test(a));
  });
  const groupStart = tokens[by - 1].range.start;
  const listEnd = names[names.length - 1].range.end;
  const head = text.slice(0, groupStart).trimEnd();
  const tail = text.slice(listEnd);
  if (kept.length) return `${head}${head ? ' ' : ''}group by ${[...new Set(kept)].join(', ')}${tail}`;
  const rest = `${head}${tail}`.trim();
  return rest === '' ? null : rest;
}

/** A `where` part with its variable filters replaced; null when the part became always true. */
function substituteWhere(text: string, values: VariableValues): string | null {
  const parsed = parseMetricsQuery(text).parts[0];
  if (parsed?.kind !== 'where') return text;
  const uses = (f: Filter) => f.values.some((v) => chosen(values, v) !== undefined);
  if (!parsed.filters.some(uses)) return text;
  // Groups of and-ed terms, or-ed together; a term is its source text or null (true).
  const groups: (string | null)[][] = [[]];
  parsed.filters.forEach((f, i) => {
    if (i > 0 && parsed.conjunctions[i - 1] === 'or') groups.push([]);
    groups[groups.length - 1].push(uses(f) ? replaceFilter(f, values) : text.slice(f.range.start, f.range.end));
  });
  const ands = groups.map((g) => g.filter((t): t is string => t !== null));
  if (ands.some((g) => g.length === 0)) return null;
  return `where ${ands.map((g) => g.join(' and ')).join(' or ')}`;
}

/** One filter with its variables' values, or null when one of them is All (the filter drops). */
function replaceFilter(f: Filter, values: VariableValues): string | null {
  const out: string[] = [];
  for (const v of f.values) {
    const c = chosen(values, v);
    if (c === undefined) out.push(v);
    else if (c === 'all' || c.length === 0) return null;
    else out.push(...c);
  }
  const list = [...new Set(out)];
  const one = list.length === 1;
  switch (f.op) {
    case '=':
    case 'in':
      return printFilter({ ...f, op: one ? '=' : 'in', values: list });
    case '!=':
    case 'not in':
      return printFilter({ ...f, op: one ? '!=' : 'not in', values: list });
    case '~':
    case '!~':
      return printFilter({ ...f, values: [one ? list[0] : `^(?:${list.map(escapeRegex).join('|')})$`] });
    default:
      return printFilter({ ...f, values: [list[0]] });
  }
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
