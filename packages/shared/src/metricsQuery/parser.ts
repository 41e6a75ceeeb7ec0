import type {
  BinaryOp,
  Diagnostic,
  Expr,
  Filter,
  FilterOp,
  GroupName,
  Grouping,
  ParsedQuery,
  Part,
  Range,
} from './ast';
import { isMetricAlias } from '../metricAliasRules';
import { lex, LexError, type Token } from './lexer';

/**
 * Metrics query parser (reference query §3.3), shared by the UI editor and the server. Parts are
 * parsed one by one: a broken part becomes an `error` part with a diagnostic and its range, and
 * the other parts still work. Precedence, tightest first: `* / %`, `+ -`, comparisons, `and`, `or`.
 */
export function parseMetricsQuery(query: string): ParsedQuery {
  const parts: Part[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { text, start } of splitParts(query)) {
    const part = parsePart(text, start);
    if (part.kind === 'error') diagnostics.push({ message: part.message, range: part.errorRange });
    parts.push(part);
  }
  return { parts, diagnostics };
}

/** Splits on `|` outside quotes; parts are trimmed and empty ones dropped (ranges kept exact). */
export function splitParts(query: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let quote = '';
  let from = 0;
  const push = (end: number) => {
    const raw = query.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text) out.push({ text, start: from + lead });
  };
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '|') {
      push(i);
      from = i + 1;
    }
  }
  push(query.length);
  return out;
}

class ParseError extends Error {
  constructor(
    message: string,
    readonly range: Range,
  ) {
    super(message);
  }
}

function parsePart(text: string, start: number): Part {
  const range = { start, end: start + text.length };
  let tokens: Token[];
  try {
    tokens = lex(text, start);
  } catch (err) {
    if (err instanceof LexError) return { kind: 'error', message: err.message, text, range, errorRange: err.range };
    throw err;
  }
  const p = new Parser(tokens);
  try {
    if (p.isWord('where')) {
      p.next();
      const { filters, conjunctions } = p.whereList();
      p.expectEof();
      return { kind: 'where', filters, conjunctions, text, range };
    }
    if (p.isWord('group') && p.peekWord(1, 'by')) {
      p.next();
      p.next();
      const grouping = p.grouping();
      p.expectEof();
      return { kind: 'grouping', grouping, text, range };
    }
  } catch (err) {
    if (err instanceof ParseError) return { kind: 'error', message: err.message, text, range, errorRange: err.range };
    throw err;
  }
  try {
    const expr = p.expr();
    let alias = '';
    if (p.isWord('as')) {
      p.next();
      const t = p.next();
      if (t.kind !== 'ident' || t.text.startsWith('$') || !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(t.text)) {
        throw new ParseError(`expected a column name after "as", got ${describe(t)}`, t.range);
      }
      alias = t.text;
    } else if (expr.kind === 'series' && expr.filters.length === 0) {
      alias = expr.alias; // a bare `$name` is a column named `name`
    }
    let grouping: Grouping | null = null;
    if (p.isWord('group') && p.peekWord(1, 'by')) {
      p.next();
      p.next();
      grouping = p.grouping();
      if (!grouping.all) {
        const scoped = grouping.names.find((n) => n.alias);
        if (scoped) throw new ParseError(`inline grouping can't contain a metric: $${scoped.alias}`, range);
      }
    }
    p.expectEof();
    return { kind: 'selector', expr, alias, grouping, text, range };
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    // Not an expression: maybe a filter list written without `where`.
    const w = new Parser(tokens);
    try {
      const { filters, conjunctions } = w.whereList();
      w.expectEof();
      return { kind: 'where', filters, conjunctions, text: `where ${text}`, range };
    } catch {
      return { kind: 'error', message: err.message, text, range, errorRange: err.range };
    }
  }
}

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const AGG_WITH_ATTRS = 'uniq';

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(n = 0): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)];
  }
  next(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)];
  }
  isWord(w: string): boolean {
    return this.peekWord(0, w);
  }
  peekWord(n: number, w: string): boolean {
    const t = this.peek(n);
    return t.kind === 'ident' && t.text.toLowerCase() === w;
  }
  isOp(op: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === op;
  }
  expectOp(op: string): Token {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== op) throw new ParseError(`expected "${op}", got ${describe(t)}`, t.range);
    return t;
  }
  expectEof(): void {
    const t = this.peek();
    if (t.kind !== 'eof') throw new ParseError(`unexpected ${describe(t)}`, t.range);
  }

  // expr := or
  expr(): Expr {
    return this.binary(0);
  }

  private static readonly LEVELS: ((p: Parser) => BinaryOp | null)[] = [
    (p) => (p.isWord('or') ? 'or' : null),
    (p) => (p.isWord('and') ? 'and' : null),
    (p) => {
      const t = p.peek();
      if (t.kind !== 'op') return null;
      if (t.text === '<>') return '!=';
      return COMPARISONS.has(t.text) ? (t.text as BinaryOp) : null;
    },
    (p) => (p.isOp('+') ? '+' : p.isOp('-') ? '-' : null),
    (p) => (p.isOp('*') ? '*' : p.isOp('/') ? '/' : p.isOp('%') ? '%' : null),
  ];

  private binary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.term();
    let left = this.binary(level + 1);
    for (let op = Parser.LEVELS[level](this); op; op = Parser.LEVELS[level](this)) {
      this.next();
      const right = this.binary(level + 1);
      left = { kind: 'binary', op, left, right, range: { start: left.range.start, end: right.range.end } };
    }
    return left;
  }

  private term(): Expr {
    const t = this.next();
    if (t.kind === 'number' || t.kind === 'duration' || t.kind === 'bytes') {
      return {
        kind: 'number',
        value: t.num!,
        unit: t.kind === 'number' ? 'none' : t.kind,
        text: t.text,
        range: t.range,
      };
    }
    if (t.kind === 'op' && t.text === '(') {
      const expr = this.expr();
      const close = this.expectOp(')');
      return { kind: 'paren', expr, range: { start: t.range.start, end: close.range.end } };
    }
    if (t.kind !== 'ident') throw new ParseError(`unexpected ${describe(t)}`, t.range);
    if (this.isOp('(')) return this.call(t);
    if (t.text.startsWith('$')) return this.series(t);
    return { kind: 'ref', name: t.text, range: t.range };
  }

  private call(name: Token): Expr {
    this.expectOp('(');
    const func = name.text.toLowerCase();
    const args: Expr[] = [];
    const attrs: string[] = [];
    if (!this.isOp(')')) {
      if (
        func === AGG_WITH_ATTRS &&
        this.peek().kind === 'ident' &&
        this.peek().text.startsWith('$') &&
        this.peek().text.includes('.')
      ) {
        // uniq($a.host.name): distinct values of an attribute of $a
        const t = this.next();
        const dot = t.text.indexOf('.');
        args.push(this.series({ ...t, text: t.text.slice(0, dot) }));
        attrs.push(t.text.slice(dot + 1));
      } else {
        args.push(this.expr());
      }
      while (this.isOp(',')) {
        this.next();
        if (func === AGG_WITH_ATTRS) {
          const a = this.next();
          if (a.kind !== 'ident') throw new ParseError(`expected an attribute name, got ${describe(a)}`, a.range);
          attrs.push(a.text);
        } else args.push(this.expr());
      }
    }
    const close = this.expectOp(')');
    return { kind: 'call', func, args, attrs, range: { start: name.range.start, end: close.range.end } };
  }

  private series(t: Token): Expr {
    const alias = t.text.slice(1);
    if (!isMetricAlias(alias)) throw new ParseError(`invalid metric alias: ${JSON.stringify(t.text)}`, t.range);
    const filters: Filter[] = [];
    let end = t.range.end;
    if (this.isOp('{')) {
      this.next();
      while (!this.isOp('}')) {
        const f = this.filter();
        if (!['=', '!=', '~', '!~', 'in', 'not in'].includes(f.op)) {
          throw new ParseError('only =, !=, ~, !~, in and not in are allowed inside curly brackets', f.range);
        }
        filters.push(f);
        if (!this.isOp(',')) break;
        this.next();
      }
      end = this.expectOp('}').range.end;
    }
    return { kind: 'series', alias, filters, range: { start: t.range.start, end } };
  }

  whereList(): { filters: Filter[]; conjunctions: ('and' | 'or')[] } {
    const filters = [this.filter()];
    const conjunctions: ('and' | 'or')[] = [];
    while (this.isWord('and') || this.isWord('or')) {
      conjunctions.push(this.next().text.toLowerCase() as 'and' | 'or');
      filters.push(this.filter());
    }
    return { filters, conjunctions };
  }

  filter(): Filter {
    const key = this.next();
    if (key.kind !== 'ident') throw new ParseError(`expected an attribute name, got ${describe(key)}`, key.range);
    let alias = '';
    let attr = key.text;
    if (attr.startsWith('$')) {
      const dot = attr.indexOf('.');
      if (dot < 0) throw new ParseError(`expected $alias.attribute, got ${JSON.stringify(attr)}`, key.range);
      alias = attr.slice(1, dot);
      attr = attr.slice(dot + 1);
    }
    const done = (op: FilterOp, values: string[]): Filter => ({
      alias,
      attr,
      op,
      values,
      range: { start: key.range.start, end: this.tokens[this.i - 1].range.end },
    });
    if (this.isWord('exists') || this.isWord('exist')) {
      this.next();
      return done('exists', []);
    }
    if (this.isWord('does') || this.isWord('not')) {
      if (this.isWord('does')) this.next();
      if (!this.isWord('not')) throw new ParseError(`expected "not", got ${describe(this.peek())}`, this.peek().range);
      this.next();
      if (this.isWord('exists') || this.isWord('exist')) {
        this.next();
        return done('not exists', []);
      }
      if (this.isWord('in')) {
        this.next();
        return done('not in', this.valueList());
      }
      if (this.isWord('like')) {
        this.next();
        return done('not like', [this.value()]);
      }
      throw new ParseError(
        `expected "in", "like" or "exists" after "not", got ${describe(this.peek())}`,
        this.peek().range,
      );
    }
    if (this.isWord('in')) {
      this.next();
      return done('in', this.valueList());
    }
    if (this.isWord('like')) {
      this.next();
      return done('like', [this.value()]);
    }
    const t = this.next();
    const ops: Record<string, FilterOp> = {
      '=': '=',
      '==': '=',
      '!=': '!=',
      '<>': '!=',
      '~': '~',
      '!~': '!~',
      '<': '<',
      '<=': '<=',
      '>': '>',
      '>=': '>=',
    };
    if (t.kind !== 'op' || !ops[t.text])
      throw new ParseError(`expected a filter operator after ${JSON.stringify(key.text)}, got ${describe(t)}`, t.range);
    return done(ops[t.text], [this.value()]);
  }

  /** A value; unquoted tokens written without spaces between them form one value (`web-2`, `a.b-c`). */
  private value(): string {
    const t = this.next();
    // A '-' written against what follows starts a value (`-1`, `-web`); alone it is no value.
    const sign =
      t.kind === 'op' && t.text === '-' && this.peek().kind !== 'eof' && this.peek().range.start === t.range.end;
    if (t.kind === 'eof' || (t.kind === 'op' && !sign))
      throw new ParseError(`expected a value, got ${describe(t)}`, t.range);
    if (t.kind === 'string') return t.text;
    let text = t.text;
    let end = t.range.end;
    for (
      let n = this.peek();
      n.kind !== 'eof' &&
      n.kind !== 'string' &&
      n.range.start === end &&
      !(n.kind === 'op' && [',', ')', '(', '}'].includes(n.text));
      n = this.peek()
    ) {
      text += n.text;
      end = n.range.end;
      this.next();
    }
    return text;
  }

  private valueList(): string[] {
    this.expectOp('(');
    const values = [this.value()];
    while (this.isOp(',')) {
      this.next();
      values.push(this.value());
    }
    this.expectOp(')');
    return values;
  }

  grouping(): Grouping {
    if (this.isWord('all')) {
      this.next();
      return { all: true };
    }
    const names: GroupName[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind !== 'ident') throw new ParseError(`expected an attribute name, got ${describe(t)}`, t.range);
      if (t.text.startsWith('$')) {
        const dot = t.text.indexOf('.');
        if (dot < 0) throw new ParseError(`expected $alias.attribute, got ${JSON.stringify(t.text)}`, t.range);
        names.push({ alias: t.text.slice(1, dot), attr: t.text.slice(dot + 1) });
      } else names.push({ alias: '', attr: t.text });
      if (!this.isOp(',')) break;
      this.next();
    }
    return { all: false, names };
  }
}

function describe(t: Token): string {
  return t.kind === 'eof' ? 'end of input' : JSON.stringify(t.text);
}
