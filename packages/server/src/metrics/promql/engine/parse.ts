// Parses PromQL text with the official lezer grammar (@prometheus-io/lezer-promql) and walks its tree
// into our typed AST. Syntax errors carry Prometheus-style positions; type rules are in typecheck.ts.
import { parser } from '@prometheus-io/lezer-promql';
import type {
  AggregateOp,
  AtModifier,
  BinaryOp,
  Expr,
  MatrixSelector,
  Pos,
  SubqueryExpr,
  VectorMatching,
  VectorSelector,
} from './ast';
import { parseError } from './errors';
import { FUNCTIONS } from './functionTypes';
import { compileRegex, parseDurationMs, parseNumber, unquoteString } from './literals';
import { matchesValue } from './matchers';
import { firstSyntaxError, normalizeTrailingDots } from './syntaxError';
import type { LabelMatcher, MatchType } from './source';
import { checkTypes } from './typecheck';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

const BINARY_OPS: Record<string, BinaryOp> = {
  Pow: '^',
  Mul: '*',
  Div: '/',
  Mod: '%',
  Atan2: 'atan2',
  Add: '+',
  Sub: '-',
  Eql: '==',
  Neq: '!=',
  Gte: '>=',
  Gtr: '>',
  Lte: '<=',
  Lss: '<',
  And: 'and',
  Or: 'or',
  Unless: 'unless',
};
const MATCH_OPS: Record<string, MatchType> = { EqlSingle: '=', Neq: '!=', EqlRegex: '=~', NeqRegex: '!~' };
const AGGREGATE_OPS = new Set<string>([
  'sum',
  'avg',
  'min',
  'max',
  'count',
  'group',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'limitk',
  'limit_ratio',
]);

class Walker {
  constructor(private readonly q: string) {}

  fail(offset: number, msg: string): never {
    throw parseError(this.q, offset, msg);
  }
  text(n: SyntaxNode): string {
    return this.q.slice(n.from, n.to);
  }
  pos(n: SyntaxNode): Pos {
    return { start: n.from, end: n.to };
  }
  exprChildren(n: SyntaxNode): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (let c = n.firstChild; c; c = c.nextSibling) if (c.type.is('Expr')) out.push(c);
    return out;
  }
  child(n: SyntaxNode, name: string): SyntaxNode | null {
    return n.getChild(name);
  }

  expr(n: SyntaxNode): Expr {
    switch (n.name) {
      case 'NumberDurationLiteral':
        return { type: 'number', value: this.number(n), pos: this.pos(n) };
      case 'StringLiteral':
        return { type: 'string', value: this.string(n), pos: this.pos(n) };
      case 'ParenExpr':
        return { type: 'paren', expr: this.expr(this.exprChildren(n)[0]), pos: this.pos(n) };
      case 'UnaryExpr': {
        const op = this.text(n.getChild('UnaryOp')!) as '+' | '-';
        return { type: 'unary', op, expr: this.expr(this.exprChildren(n)[0]), pos: this.pos(n) };
      }
      case 'VectorSelector':
        return this.vectorSelector(n);
      case 'MatrixSelector':
        return this.matrixSelector(n);
      case 'SubqueryExpr':
        return this.subquery(n);
      case 'OffsetExpr':
        return this.offset(n);
      case 'StepInvariantExpr':
        return this.at(n);
      case 'BinaryExpr':
        return this.binary(n);
      case 'AggregateExpr':
        return this.aggregate(n);
      case 'FunctionCall':
        return this.call(n);
      case 'AnchoredExpr':
        return this.fail(n.from, 'anchored modifier is experimental and not enabled');
      case 'SmoothedExpr':
        return this.fail(n.from, 'smoothed modifier is experimental and not enabled');
      default:
        return this.fail(n.from, `unexpected ${JSON.stringify(this.text(n))}`);
    }
  }

  number(n: SyntaxNode): number {
    const value = parseNumber(this.text(n).replace(/^\+/, ''));
    if (value === undefined) {
      const t = this.text(n);
      if (t.startsWith('-')) {
        const inner = parseNumber(t.slice(1));
        if (inner !== undefined) return -inner;
      }
      return this.fail(n.from, `error parsing number: ${t}`);
    }
    return value;
  }

  string(n: SyntaxNode): string {
    const t = this.text(n);
    try {
      return unquoteString(t);
    } catch (e) {
      return this.fail(n.from, `error unquoting string ${JSON.stringify(t)}: ${(e as Error).message}`);
    }
  }

  /** A duration in brackets or after offset: a literal with unit, or a number of seconds. */
  duration(n: SyntaxNode): number {
    let sign = 1;
    let d: SyntaxNode = n;
    while (d.getChild('UnaryOp') && (d.name === 'OffsetDurationExpr' || d.name === 'DurationExpr')) {
      if (this.text(d.getChild('UnaryOp')!) === '-') sign = -sign;
      d = d.lastChild!;
    }
    const lit =
      d.name === 'NumberDurationLiteralInDurationContext' ? d : d.getChild('NumberDurationLiteralInDurationContext');
    if (!lit || lit.nextSibling || lit.prevSibling)
      return this.fail(n.from, 'experimental duration expression is not enabled');
    const t = this.text(lit);
    const ms = parseDurationMs(t) ?? (parseNumber(t) ?? NaN) * 1000;
    if (!Number.isFinite(ms)) return this.fail(lit.from, `expected number literal or duration expression`);
    return sign * Math.round(ms);
  }

  vectorSelector(n: SyntaxNode): VectorSelector {
    const ident = n.getChild('Identifier');
    const name = ident ? this.text(ident) : undefined;
    const matchers: LabelMatcher[] = [];
    const lm = n.getChild('LabelMatchers');
    if (lm) {
      for (let c = lm.firstChild; c; c = c.nextSibling) {
        if (c.name === 'UnquotedLabelMatcher' || c.name === 'QuotedLabelMatcher') {
          const nameNode = c.firstChild!;
          const label = c.name === 'UnquotedLabelMatcher' ? this.text(nameNode) : this.string(nameNode.firstChild!);
          const op = MATCH_OPS[c.getChild('MatchOp')!.firstChild!.name];
          const valueNode = c.lastChild!;
          const value = this.string(valueNode);
          if (op === '=~' || op === '!~') {
            try {
              compileRegex(value);
            } catch (e) {
              this.fail(valueNode.from, `error parsing regexp: ${(e as Error).message}`);
            }
          }
          matchers.push({ name: label, type: op, value });
        } else if (c.name === 'QuotedLabelName') {
          // {"metric.name"}: a quoted metric name alone.
          matchers.push({ name: '__name__', type: '=', value: this.string(c.firstChild!) });
        }
      }
    }
    if (name !== undefined) {
      const other = matchers.find((m) => m.name === '__name__');
      if (other)
        this.fail(
          n.from,
          `metric name must not be set twice: ${JSON.stringify(name)} or ${JSON.stringify(other.value)}`,
        );
      matchers.unshift({ name: '__name__', type: '=', value: name });
    }
    if (!matchers.some((m) => !matchesValue(m, ''))) {
      this.fail(n.from, 'vector selector must contain at least one non-empty matcher');
    }
    return { type: 'vectorSelector', name, matchers, offsetMs: 0, at: undefined, pos: this.pos(n) };
  }

  /**
   * The lezer grammar attaches a postfix ([range], [range:step], offset, @) to the whole binary or
   * unary expression before it (`a + b offset 1m` parses as `(a + b) offset 1m`); in Prometheus it
   * binds to the operand right before it. This applies `f` to that operand.
   */
  postfix(inner: Expr, n: SyntaxNode, f: (operand: Expr) => Expr): Expr {
    if (inner.type === 'binary')
      return { ...inner, rhs: this.postfix(inner.rhs, n, f), pos: { start: inner.pos.start, end: n.to } };
    if (inner.type === 'unary')
      return { ...inner, expr: this.postfix(inner.expr, n, f), pos: { start: inner.pos.start, end: n.to } };
    return f(inner);
  }

  matrixSelector(n: SyntaxNode): Expr {
    const rangeMs = this.duration(n.getChild('DurationExpr')!);
    return this.postfix(this.expr(this.exprChildren(n)[0]), n, (inner): MatrixSelector => {
      if (inner.type !== 'vectorSelector')
        return this.fail(inner.pos.start, 'ranges only allowed for vector selectors');
      if (inner.offsetMs !== 0 || inner.at)
        return this.fail(inner.pos.start, 'no offset modifiers allowed before range');
      if (rangeMs <= 0) return this.fail(inner.pos.start, `range must be greater than 0`);
      return { type: 'matrixSelector', vector: inner, rangeMs, pos: { start: inner.pos.start, end: n.to } };
    });
  }

  subquery(n: SyntaxNode): Expr {
    const durations = n.getChildren('DurationExpr');
    const rangeMs = this.duration(durations[0]);
    const stepMs = durations[1] ? this.duration(durations[1]) : 0;
    return this.postfix(this.expr(this.exprChildren(n)[0]), n, (inner): SubqueryExpr => {
      if (rangeMs <= 0) return this.fail(inner.pos.start, `range must be greater than 0`);
      if (stepMs < 0) return this.fail(inner.pos.start, `step must be greater than 0`);
      return {
        type: 'subquery',
        expr: inner,
        rangeMs,
        stepMs,
        offsetMs: 0,
        at: undefined,
        pos: { start: inner.pos.start, end: n.to },
      };
    });
  }

  /** The selector or subquery an offset/@ applies to (a range selector's offset is its vector's). */
  modifierTarget(e: Expr, what: string): VectorSelector | SubqueryExpr {
    if (e.type === 'vectorSelector' || e.type === 'subquery') return e;
    if (e.type === 'matrixSelector') return e.vector;
    return this.fail(
      e.pos.start,
      `${what} modifier must be preceded by an instant vector selector or range vector selector or a subquery`,
    );
  }

  offset(n: SyntaxNode): Expr {
    const offsetMs = this.duration(n.getChild('OffsetDurationExpr')!);
    return this.postfix(this.expr(this.exprChildren(n)[0]), n, (e) => {
      const target = this.modifierTarget(e, 'offset');
      if (target.offsetMs !== 0) return this.fail(e.pos.start, 'offset may not be set multiple times');
      target.offsetMs = offsetMs;
      return { ...e, pos: { start: e.pos.start, end: n.to } };
    });
  }

  at(n: SyntaxNode): Expr {
    const pre = n.getChild('AtModifierPreprocessors');
    let at: AtModifier;
    if (pre) {
      at = pre.firstChild!.name === 'AtStart' ? { kind: 'start' } : { kind: 'end' };
    } else {
      const lit = n.getChild('NumberDurationLiteral')!;
      const seconds = this.number(lit);
      if (!Number.isFinite(seconds)) return this.fail(n.from, `timestamp out of bounds for @ modifier: ${seconds}`);
      at = { kind: 'time', ms: Math.round(seconds * 1000) };
    }
    return this.postfix(this.expr(this.exprChildren(n)[0]), n, (e) => {
      const target = this.modifierTarget(e, '@');
      if (target.at) return this.fail(e.pos.start, '@ <timestamp> may not be set multiple times');
      target.at = at;
      return { ...e, pos: { start: e.pos.start, end: n.to } };
    });
  }

  binary(n: SyntaxNode): Expr {
    const [l, r] = this.exprChildren(n);
    let opNode: SyntaxNode | null = null;
    for (let c = l.nextSibling; c; c = c.nextSibling) {
      if (c.name in BINARY_OPS) {
        opNode = c;
        break;
      }
    }
    const op = BINARY_OPS[opNode!.name];
    const returnBool = n.getChild('BoolModifier') !== null;
    const clause = n.getChild('MatchingModifierClause');
    if (n.getChild('FillModifier')) return this.fail(n.from, 'binop fill modifiers are experimental and not enabled');
    let matching: VectorMatching | undefined;
    if (clause) {
      const groups = clause.getChildren('GroupingLabels');
      const on = clause.getChild('On') !== null;
      const left = clause.getChild('GroupLeft') !== null;
      const right = clause.getChild('GroupRight') !== null;
      matching = {
        card: left ? 'many-to-one' : right ? 'one-to-many' : 'one-to-one',
        on,
        labels: this.labels(groups[0]),
        include: groups[1] ? this.labels(groups[1]) : [],
      };
    }
    return {
      type: 'binary',
      op,
      lhs: this.expr(l),
      rhs: this.expr(r),
      returnBool,
      matching,
      pos: this.pos(n),
      opPos: { start: opNode!.from, end: opNode!.to },
    };
  }

  labels(n: SyntaxNode): string[] {
    const out: string[] = [];
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.name === 'LabelName') out.push(this.text(c));
      else if (c.name === 'QuotedLabelName') out.push(this.string(c.firstChild!));
    }
    return out;
  }

  aggregate(n: SyntaxNode): Expr {
    const op = this.text(n.getChild('AggregateOp')!).toLowerCase();
    if (!AGGREGATE_OPS.has(op)) return this.fail(n.from, `unknown aggregation ${op}`);
    const modifier = n.getChild('AggregateModifier');
    const args = this.exprChildren(n.getChild('FunctionCallBody')!).map((c) => this.expr(c));
    const withParam =
      op === 'topk' || op === 'bottomk' || op === 'quantile' || op === 'count_values' || op.startsWith('limit');
    if (args.length === 0) return this.fail(n.from, 'no arguments for aggregate expression provided');
    const want = withParam ? 2 : 1;
    if (args.length !== want) {
      return this.fail(
        n.from,
        `wrong number of arguments for aggregate expression provided, expected ${want}, got ${args.length}`,
      );
    }
    return {
      type: 'aggregate',
      op: op as AggregateOp,
      expr: args[want - 1],
      param: withParam ? args[0] : undefined,
      grouping: modifier ? this.labels(modifier.getChild('GroupingLabels')!) : [],
      without: modifier?.getChild('Without') !== null && modifier !== null,
      pos: this.pos(n),
    };
  }

  call(n: SyntaxNode): Expr {
    const func = this.text(n.getChild('FunctionIdentifier')!);
    if (!(func in FUNCTIONS)) return this.fail(n.from, `function ${JSON.stringify(func)} is not supported`);
    const args = this.exprChildren(n.getChild('FunctionCallBody')!).map((c) => this.expr(c));
    return { type: 'call', func, args, pos: this.pos(n) };
  }
}

/** Parses and type-checks a query; throws PromQLError('bad_data', '1:5: parse error: ...'). */
export function parsePromQL(query: string): Expr {
  if (query.trim() === '') throw parseError(query, 0, 'no expression found in input');
  const q = normalizeTrailingDots(query);
  const tree = parser.parse(q);
  const top = tree.topNode;
  const err = firstSyntaxError(q, top);
  if (err) throw parseError(q, err.offset, err.msg);
  const w = new Walker(q);
  const first = w.exprChildren(top)[0];
  if (!first) throw parseError(q, 0, 'no expression found in input');
  const expr = w.expr(first);
  checkTypes(expr, q);
  return expr;
}
