/**
 * The expression language of `metrics_from_spans` (value, attributes, where): what a definition in
 * lantern.yml may say about a span row, parsed once at start-up so that a bad definition is refused
 * with its key before anything runs. Storage compiles the parsed tree into functions over span rows
 * (spanMetricPoints.ts); nothing of the text reaches SQL.
 *
 * - `.name`: a column of the span row (the leading dot), e.g. `.duration` (nanoseconds),
 *   `.trace_id` (32 hex digits),
 *   `.status_code`, `.group_id`, `.system`, `.event_name`, `.is_event` (an event or log row);
 * - `service.name`: an attribute (the indexed ones read their own column, others the attribute map);
 * - numbers, 'strings', + - * /, = != < <= > >=, and, or, not, parentheses.
 */
export type SpanExpr =
  | { kind: 'column'; name: SpanColumn }
  | { kind: 'attr'; key: string }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'unary'; op: '-' | 'not'; arg: SpanExpr }
  | { kind: 'binary'; op: BinaryOp; left: SpanExpr; right: SpanExpr };

export type BinaryOp = '+' | '-' | '*' | '/' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** Row columns an expression may name with a leading dot, and whether each is a number. */
export const SPAN_COLUMNS = {
  trace_id: 'string',
  system: 'string',
  group_id: 'number',
  type: 'string',
  kind: 'string',
  name: 'string',
  event_name: 'string',
  display_name: 'string',
  duration: 'number',
  count: 'number',
  status_code: 'string',
  status_message: 'string',
  standalone: 'number',
  is_event: 'number',
  link_count: 'number',
  event_count: 'number',
  event_error_count: 'number',
  event_log_count: 'number',
} as const;
export type SpanColumn = keyof typeof SPAN_COLUMNS;

export class SpanExprError extends Error {}

type Token = { t: 'num'; v: number } | { t: 'str'; v: string } | { t: 'ref'; v: string } | { t: 'op'; v: string };

const OPS = ['!=', '<=', '>=', '+', '-', '*', '/', '=', '<', '>', '(', ')'];
const KEYWORDS = new Set(['and', 'or', 'not']);

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let v = '';
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        v += src[j];
      }
      if (j >= src.length) throw new SpanExprError(`unterminated string starting at position ${i + 1}`);
      out.push({ t: 'str', v });
      i = j + 1;
      continue;
    }
    const ref = /^\.?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*/.exec(src.slice(i));
    if (ref) {
      out.push(KEYWORDS.has(ref[0].toLowerCase()) ? { t: 'op', v: ref[0].toLowerCase() } : { t: 'ref', v: ref[0] });
      i += ref[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new SpanExprError(`unexpected ${JSON.stringify(c)} at position ${i + 1}`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

/** Parses one expression; throws SpanExprError with what is wrong and where. */
export function parseSpanExpr(src: string): SpanExpr {
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (...ops: string[]) => peek()?.t === 'op' && ops.includes(peek().v as string);
  const binary = (next: () => SpanExpr, ops: BinaryOp[]) => (): SpanExpr => {
    let left = next();
    while (isOp(...ops)) {
      const op = tokens[pos++].v as BinaryOp;
      left = { kind: 'binary', op, left, right: next() };
    }
    return left;
  };
  const primary = (): SpanExpr => {
    const tok = tokens[pos++];
    if (!tok) throw new SpanExprError('unexpected end of expression');
    if (tok.t === 'num') return { kind: 'number', value: tok.v };
    if (tok.t === 'str') return { kind: 'string', value: tok.v };
    if (tok.t === 'ref') {
      if (tok.v.startsWith('.')) {
        const name = tok.v.slice(1);
        if (!(name in SPAN_COLUMNS)) {
          throw new SpanExprError(
            `unknown span column ${tok.v} (known: ${Object.keys(SPAN_COLUMNS)
              .map((c) => '.' + c)
              .join(', ')})`,
          );
        }
        return { kind: 'column', name: name as SpanColumn };
      }
      // The deprecated `span.` prefix of the reference means a column.
      if (tok.v.startsWith('span.') && tok.v.slice(5) in SPAN_COLUMNS)
        return { kind: 'column', name: tok.v.slice(5) as SpanColumn };
      return { kind: 'attr', key: tok.v };
    }
    if (tok.v === '(') {
      const inner = or();
      if (!isOp(')')) throw new SpanExprError('missing )');
      pos++;
      return inner;
    }
    if (tok.v === '-') return { kind: 'unary', op: '-', arg: primary() };
    if (tok.v === 'not') return { kind: 'unary', op: 'not', arg: compare() };
    throw new SpanExprError(`unexpected ${JSON.stringify(tok.v)}`);
  };
  const mul = binary(primary, ['*', '/']);
  const add = binary(mul, ['+', '-']);
  const compare = binary(add, ['=', '!=', '<', '<=', '>', '>=']);
  const and = binary(compare, ['and']);
  const or = binary(and, ['or']);
  if (tokens.length === 0) throw new SpanExprError('empty expression');
  const expr = or();
  if (pos < tokens.length)
    throw new SpanExprError(`unexpected ${JSON.stringify(String(tokens[pos].v))} after a complete expression`);
  return expr;
}

/** `expr as alias` (attributes): the expression, and the name the metric's attribute gets. */
export function parseAliased(src: string): { expr: SpanExpr; alias: string } {
  const m = /^(.*?)\s+as\s+([A-Za-z_.][A-Za-z0-9_.]*)\s*$/i.exec(src);
  const exprText = m ? m[1] : src;
  const expr = parseSpanExpr(exprText);
  if (m) return { expr, alias: m[2] };
  if (expr.kind === 'column') return { expr, alias: '.' + expr.name };
  if (expr.kind === 'attr') return { expr, alias: expr.key };
  throw new SpanExprError(`an expression needs a name: write "${src.trim()} as <name>"`);
}
