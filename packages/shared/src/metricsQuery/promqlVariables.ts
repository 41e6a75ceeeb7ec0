import { VARIABLE_NAME_RE, type VariableValues } from './variables';

/**
 * Dashboard variables in a PromQL panel's query (issue 41), as Grafana writes them for Prometheus:
 * `$name` or `${name}` anywhere in the query, replaced before it is parsed.
 *
 * - In a regex matcher's string (`{service=~"$service"}`): one value regex-escaped, several as the
 *   alternation `(a|b)` (each escaped), All as `.*`.
 * - In an equality matcher's string (`{service="$service"}`): one value as it is; several or All turn
 *   the matcher into its regex (`=~"(a|b)"`, `!~".*"`) when the string is the variable alone, as a
 *   Grafana user means it; inside a longer string they are written as the regex form.
 * - Outside a string (`sum by ($group) (...)`): one value as it is, several joined by `, ` (a label
 *   list); All as `.*` (a PromQL error there: All is for label matchers).
 *
 * Escapes follow the string's quotes (a backslash doubled in `"..."` and `'...'`, none in a raw
 * backtick string). A `$name` that is not a given variable stays as written.
 */
export function substitutePromqlVariables(query: string, values: VariableValues): string {
  if (values.size === 0 || !query.includes('$')) return query;
  let out = '';
  let i = 0;
  while (i < query.length) {
    const c = query[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = stringEnd(query, i);
      const literal = query.slice(i, end);
      const op = matcherOp(out);
      const rewritten = substituteInString(literal, op, values);
      out = rewritten.op !== op ? out.slice(0, out.length - trailingOp(out).length) + rewritten.op : out;
      out += rewritten.literal;
      i = end;
      continue;
    }
    const ref = c === '$' ? variableAt(query, i) : null;
    const chosen = ref ? values.get(ref.name) : undefined;
    if (ref && chosen !== undefined) {
      out += chosen === 'all' ? '.*' : chosen.join(', ');
      i = ref.end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

type Op = '=~' | '!~' | '=' | '!=' | null;

/** `$name` or `${name}` at `i`: the name and where the reference ends. */
function variableAt(text: string, i: number): { name: string; end: number } | null {
  if (text[i + 1] === '{') {
    const close = text.indexOf('}', i + 2);
    const name = close < 0 ? '' : text.slice(i + 2, close);
    return VARIABLE_NAME_RE.test(name) ? { name, end: close + 1 } : null;
  }
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
  return m ? { name: m[0], end: i + 1 + m[0].length } : null;
}

/** The index after the string literal opening at `start` (its end of text when unterminated). */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (quote !== '`' && text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  return text.length;
}

/** The matcher operator right before a string (the text written so far ends with it), with its spaces. */
function trailingOp(before: string): string {
  return /(=~|!~|!=|=)\s*$/.exec(before)?.[0] ?? '';
}

function matcherOp(before: string): Op {
  const op = trailingOp(before).trim();
  return op === '' ? null : (op as Op);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function substituteInString(literal: string, op: Op, values: VariableValues): { literal: string; op: Op } {
  const quote = literal[0];
  const closed = literal.length > 1 && literal.endsWith(quote);
  const body = literal.slice(1, closed ? -1 : undefined);
  const escape = (s: string) =>
    quote === '`' ? s : s.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
  const refs: { start: number; end: number; chosen: readonly string[] | 'all' }[] = [];
  for (let i = body.indexOf('$'); i >= 0; i = body.indexOf('$', i + 1)) {
    const ref = variableAt(body, i);
    const chosen = ref ? values.get(ref.name) : undefined;
    if (ref && chosen !== undefined) refs.push({ start: i, end: ref.end, chosen });
  }
  if (refs.length === 0) return { literal, op };
  const plural = (c: readonly string[] | 'all') => c === 'all' || c.length !== 1;
  // `label="$v"` with several values or All: the matcher becomes its regex.
  let nextOp = op;
  if ((op === '=' || op === '!=') && refs.length === 1 && refs[0].start === 0 && refs[0].end === body.length)
    if (plural(refs[0].chosen)) nextOp = op === '=' ? '=~' : '!~';
  const regex = nextOp === '=~' || nextOp === '!~';
  const text = (c: readonly string[] | 'all') => {
    if (c === 'all') return '.*';
    if (!regex && c.length === 1) return c[0];
    const list = c.map(escapeRegex);
    return list.length === 1 ? list[0] : `(${list.join('|')})`;
  };
  let out = '';
  let at = 0;
  for (const r of refs) {
    out += body.slice(at, r.start) + escape(text(r.chosen));
    at = r.end;
  }
  out += body.slice(at);
  return { literal: `${quote}${out}${closed ? quote : ''}`, op: nextOp };
}
