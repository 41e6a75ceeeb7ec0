import {
  AGG_FUNCS,
  type AggFunc,
  type Column,
  type Diagnostic,
  type Filter,
  type FilterOp,
  type Literal,
  type Name,
  type ParsedPart,
  type PartAst,
} from './ast';
import { BUILTIN_FIELDS } from './fields';
import { lex, type Token } from './lexer';

/**
 * Parser of the tracing query language (reference query §1). A query is parts joined by ` | `;
 * each part is parsed on its own into a `where`, `group by` or column-selector AST, or gets a
 * diagnostic (message + range in full-query offsets) so the UI can mark the wrong chip.
 */

const FUNC_BY_LOWER = new Map<string, AggFunc>(AGG_FUNCS.map((f) => [f.toLowerCase(), f]));

export const PART_SEPARATOR = ' | ';

/** Splits on ` | `, trims, drops empty parts; keeps full-query offsets. */
export function splitParts(query: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  let from = 0;
  for (;;) {
    const at = query.indexOf(PART_SEPARATOR, from);
    const raw = query.slice(from, at === -1 ? query.length : at);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text) out.push({ text, start: from + lead, end: from + lead + text.length });
    if (at === -1) break;
    from = at + PART_SEPARATOR.length;
  }
  return out;
}

export function parseQuery(query: string): ParsedPart[] {
  return splitParts(query).map((p) => parsePart(p.text, p.start));
}

/** `span.duration` -> `.duration`; everything else as is. */
export function canonicalAttr(key: string): string {
  return key.startsWith('span.') ? key.slice(4) : key;
}

class ParseError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

/** Parses one part; `offset` is where it starts in the full query. */
export function parsePart(text: string, offset = 0): ParsedPart {
  const base = { text, start: offset, end: offset + text.length };
  const { tokens, error } = lex(text);
  const shift = (d: Diagnostic): Diagnostic => ({ message: d.message, start: d.start + offset, end: d.end + offset });
  if (error) return { ...base, error: shift(error) };
  const attempts: (() => PartAst)[] = [];
  const first = kw(tokens[0]);
  if (first === 'where')
    attempts.push(() => new Parser(tokens, 1).whole((p) => ({ kind: 'where', filters: p.filters() })));
  else if (first === 'group')
    attempts.push(() =>
      new Parser(tokens, 0).whole((p) => (p.expectKw('group'), p.expectKw('by'), { kind: 'group', names: p.names() })),
    );
  else if (first === 'select')
    attempts.push(() => new Parser(tokens, 1).whole((p) => ({ kind: 'select', columns: p.columns() })));
  else {
    attempts.push(() => new Parser(tokens, 0).whole((p) => ({ kind: 'select', columns: p.columns() })));
    attempts.push(() => new Parser(tokens, 0).whole((p) => ({ kind: 'where', filters: p.filters() })));
  }
  let best: ParseError | undefined;
  for (const attempt of attempts) {
    try {
      return { ...base, ast: attempt() };
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      if (!best || e.start > best.start) best = e;
    }
  }
  return { ...base, error: shift({ message: best!.message, start: best!.start, end: best!.end }) };
}

const kw = (t: Token | undefined): string | null => (t && t.type === 'ident' ? t.value.toLowerCase() : null);

class Parser {
  constructor(
    private readonly tokens: Token[],
    private pos: number,
  ) {}

  whole<T>(f: (p: Parser) => T): T {
    const out = f(this);
    const t = this.peek();
    if (t.type !== 'eof') throw this.unexpected(t);
    return out;
  }

  private peek(n = 0): Token {
    return this.tokens[Math.min(this.pos + n, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.pos++;
    return t;
  }

  private unexpected(t: Token, expected?: string): ParseError {
    if (t.type === 'eof')
      return new ParseError(expected ? `expected ${expected} at the end` : 'unexpected end of part', t.start, t.end);
    return new ParseError(`unexpected "${t.text}"${expected ? `, expected ${expected}` : ''}`, t.start, t.end);
  }

  private isByte(c: string, n = 0): boolean {
    const t = this.peek(n);
    return t.type === 'byte' && t.value === c;
  }

  private expectByte(c: string): Token {
    if (!this.isByte(c)) throw this.unexpected(this.peek(), `"${c}"`);
    return this.next();
  }

  expectKw(word: string): Token {
    if (kw(this.peek()) !== word) throw this.unexpected(this.peek(), `"${word}"`);
    return this.next();
  }

  names(): Name[] {
    const out = [this.name()];
    while (this.isByte(',')) {
      this.next();
      out.push(this.name());
    }
    return out;
  }

  columns(): Column[] {
    const out: Column[] = [];
    do {
      if (out.length) this.next();
      out.push(...this.column());
    } while (this.isByte(','));
    return out;
  }

  /** `name [as alias]` or the fan-out `{p50,p90}(attr)`. */
  private column(): Column[] {
    if (this.isByte('{')) {
      const open = this.next();
      const funcs: Token[] = [];
      do {
        if (funcs.length) this.next();
        const t = this.next();
        if (t.type !== 'ident') throw this.unexpected(t, 'a function name');
        funcs.push(t);
      } while (this.isByte(','));
      this.expectByte('}');
      this.expectByte('(');
      const arg = this.argument();
      const close = this.expectByte(')');
      return funcs.map((f) => ({ name: makeCall(f, arg, close.end), start: open.start, end: close.end }));
    }
    const name = this.name();
    if (kw(this.peek()) === 'as') {
      this.next();
      const alias = this.next();
      if (alias.type !== 'ident' && alias.type !== 'string')
        throw new ParseError('alias is required (AS alias)', alias.start, alias.end);
      return [{ name, alias: alias.value, start: name.start, end: alias.end }];
    }
    return [{ name, start: name.start, end: name.end }];
  }

  /** `func(arg)`, `func()`, or an attribute (identifier or quoted key). */
  name(): Name {
    const t = this.next();
    if (t.type === 'ident' && this.isByte('(')) {
      this.next();
      if (this.isByte(')')) {
        const close = this.next();
        return makeCall(t, null, close.end);
      }
      const arg = this.argument();
      const close = this.expectByte(')');
      return makeCall(t, arg, close.end);
    }
    if (t.type === 'ident' || t.type === 'string') {
      if (t.type === 'ident' && isKeyword(t.value)) throw this.unexpected(t, 'an attribute');
      if (!t.value) throw new ParseError('attribute name is empty', t.start, t.end);
      return attrName(t);
    }
    throw this.unexpected(t, 'an attribute or function');
  }

  /** A function argument: an attribute or (for per_min) a nested call. */
  private argument(): Name {
    return this.name();
  }

  filters(): Filter[] {
    if (this.isByte('{')) return this.multiAttrFilter();
    const out: Filter[] = [this.filter(null)];
    for (;;) {
      const k = kw(this.peek());
      if (k !== 'and' && k !== 'or') break;
      this.next();
      out.push(this.filter(k));
    }
    return out;
  }

  /** `{a,b} op v` = `a op v or b op v`. */
  private multiAttrFilter(): Filter[] {
    this.next();
    const names: Name[] = [];
    do {
      if (names.length) this.next();
      const t = this.next();
      if (t.type !== 'ident' && t.type !== 'string') throw this.unexpected(t, 'an attribute');
      names.push(attrName(t));
    } while (this.isByte(','));
    this.expectByte('}');
    const op = this.operator();
    const value = this.literal();
    const end = this.tokens[this.pos - 1].end;
    return names.map((lhs, i) => ({
      connector: i === 0 ? null : 'or',
      lhs,
      op,
      values: [value],
      start: lhs.start,
      end,
    }));
  }

  private filter(connector: 'and' | 'or' | null): Filter {
    const lhs = this.name();
    const at = (op: FilterOp, values: Literal[]): Filter => ({
      connector,
      lhs,
      op,
      values,
      start: lhs.start,
      end: this.tokens[this.pos - 1].end,
    });
    const k = kw(this.peek());
    const k1 = kw(this.peek(1));
    const k2 = kw(this.peek(2));
    if (k === 'in' || (k === 'not' && k1 === 'in')) {
      this.next();
      if (k === 'not') this.next();
      this.expectByte('(');
      const values: Literal[] = [this.literal()];
      while (this.isByte(',')) {
        this.next();
        values.push(this.literal());
      }
      this.expectByte(')');
      return at(k === 'not' ? 'not in' : 'in', values);
    }
    if (k === 'exists' || k === 'exist') {
      this.next();
      return at('exists', []);
    }
    if (
      (k === 'not' && (k1 === 'exists' || k1 === 'exist')) ||
      (k === 'does' && k1 === 'not' && (k2 === 'exists' || k2 === 'exist'))
    ) {
      this.pos += k === 'does' ? 3 : 2;
      return at('not exists', []);
    }
    const t = this.peek();
    if (t.type === 'eof' || (t.type === 'ident' && (k === 'and' || k === 'or'))) {
      // A bare attribute: `where foo` is `foo = 1` (reference §1.3).
      return at('=', [{ kind: 'number', value: '1', num: 1 }]);
    }
    const op = this.operator();
    return at(op, [this.literal()]);
  }

  private operator(): FilterOp {
    const t = this.peek();
    const k = kw(t);
    if (t.type === 'byte') {
      const c = t.value;
      const n = this.peek(1);
      const glued = n.type === 'byte' && n.start === t.end ? n.value : '';
      const two = c + glued;
      const TWO: Record<string, FilterOp> = {
        '>=': '>=',
        '<=': '<=',
        '==': '=',
        '!=': '!=',
        '<>': '!=',
        '!~': 'not contains',
      };
      if (TWO[two]) {
        this.pos += 2;
        return TWO[two];
      }
      const ONE: Record<string, FilterOp> = { '=': '=', '<': '<', '>': '>', '~': 'contains' };
      if (ONE[c]) {
        this.pos++;
        return ONE[c];
      }
      throw this.unexpected(t, 'an operator');
    }
    if (k === 'like' || k === 'contains' || k === 'contain') {
      this.next();
      return k === 'like' ? 'like' : 'contains';
    }
    if (k === 'not' || k === 'does') {
      const start = this.pos;
      this.next();
      if (k === 'does') this.expectKw('not');
      const k2 = kw(this.peek());
      if (k2 === 'like' && k === 'not') {
        this.next();
        return 'not like';
      }
      if (k2 === 'contains' || k2 === 'contain') {
        this.next();
        return 'not contains';
      }
      this.pos = start;
    }
    throw this.unexpected(t, 'an operator');
  }

  private literal(): Literal {
    const t = this.next();
    switch (t.type) {
      case 'duration':
        return { kind: 'duration', value: t.value, num: t.num };
      case 'number':
        return { kind: 'number', value: t.value, num: t.num };
      case 'string':
        return { kind: 'string', value: t.value };
      case 'ident':
        return { kind: 'string', value: t.value };
      default:
        throw this.unexpected(t, 'a value');
    }
  }
}

function attrName(t: Token): Name {
  const attr = canonicalAttr(t.value);
  if (attr.startsWith('.') && !BUILTIN_FIELDS[attr])
    throw new ParseError(`unknown span field "${t.value}"`, t.start, t.end);
  return { func: null, attr, text: attr, start: t.start, end: t.end };
}

const KEYWORDS = new Set([
  'where',
  'group',
  'by',
  'select',
  'and',
  'or',
  'in',
  'not',
  'does',
  'exist',
  'exists',
  'contain',
  'contains',
  'like',
  'as',
]);
const isKeyword = (w: string) => KEYWORDS.has(w.toLowerCase());

function makeCall(fnTok: Token, arg: Name | null, end: number): Name {
  const func = FUNC_BY_LOWER.get(fnTok.value.toLowerCase());
  if (!func)
    throw new ParseError(
      `unknown function "${fnTok.value}" (supported: ${AGG_FUNCS.join(', ')})`,
      fnTok.start,
      fnTok.end,
    );
  if (func === 'count') {
    if (arg && arg.attr !== '' && arg.func === null && arg.attr !== '.count') {
      // count(attr) counts rows where the attribute exists? Keep it simple: count() only.
      throw new ParseError('count() takes no argument', arg.start, arg.end);
    }
    return { func, attr: '', text: 'count()', start: fnTok.start, end };
  }
  if (!arg) throw new ParseError(`${func}() needs an argument`, fnTok.start, end);
  if (func === 'per_min') {
    if (arg.func === null) return { func, attr: arg.attr, text: `per_min(${arg.text})`, start: fnTok.start, end };
    if (arg.func === 'per_min') throw new ParseError('per_min() cannot be nested', arg.start, arg.end);
    return { func, attr: '', inner: arg, text: `per_min(${arg.text})`, start: fnTok.start, end };
  }
  if (arg.func !== null) throw new ParseError(`${func}() takes an attribute, not a function`, arg.start, arg.end);
  return { func, attr: arg.attr, text: `${func}(${arg.attr})`, start: fnTok.start, end };
}
