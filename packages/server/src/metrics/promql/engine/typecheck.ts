// Type rules of PromQL as Prometheus's parser checks them (parser/parse.go, checkAST): argument types
// of functions and aggregations, operand types of binary and unary operators, matching modifiers.
import type { Expr, ValueType } from './ast';
import { parseError } from './errors';
import { FUNCTIONS } from './functionTypes';

const DOCUMENTED: Record<ValueType, string> = {
  scalar: 'scalar',
  vector: 'instant vector',
  matrix: 'range vector',
  string: 'string',
};

const COMPARISON = new Set(['==', '!=', '>', '<', '>=', '<=']);
const SET_OPS = new Set(['and', 'or', 'unless']);

export function isComparison(op: string): boolean {
  return COMPARISON.has(op);
}
export function isSetOp(op: string): boolean {
  return SET_OPS.has(op);
}

/** The value type an expression evaluates to. */
export function typeOf(e: Expr): ValueType {
  switch (e.type) {
    case 'number':
      return 'scalar';
    case 'string':
      return 'string';
    case 'vectorSelector':
    case 'aggregate':
      return 'vector';
    case 'matrixSelector':
    case 'subquery':
      return 'matrix';
    case 'paren':
    case 'unary':
      return typeOf(e.expr);
    case 'binary':
      return typeOf(e.lhs) === 'scalar' && typeOf(e.rhs) === 'scalar' ? 'scalar' : 'vector';
    case 'call':
      return FUNCTIONS[e.func].returns;
  }
}

/** Throws PromQLError('bad_data') with the position of the first type error, as Prometheus words it. */
export function checkTypes(e: Expr, q: string): void {
  const fail = (offset: number, msg: string): never => {
    throw parseError(q, offset, msg);
  };
  const expect = (node: Expr, want: ValueType, context: string): void => {
    const got = typeOf(node);
    if (got !== want) fail(node.pos.start, `expected type ${DOCUMENTED[want]} in ${context}, got ${DOCUMENTED[got]}`);
  };
  switch (e.type) {
    case 'number':
    case 'string':
    case 'vectorSelector':
    case 'matrixSelector':
      return;
    case 'paren':
      return checkTypes(e.expr, q);
    case 'unary': {
      checkTypes(e.expr, q);
      const t = typeOf(e.expr);
      if (t !== 'scalar' && t !== 'vector') {
        fail(
          e.pos.start,
          `unary expression only allowed on expressions of type scalar or instant vector, got ${JSON.stringify(DOCUMENTED[t])}`,
        );
      }
      return;
    }
    case 'subquery': {
      checkTypes(e.expr, q);
      const t = typeOf(e.expr);
      if (t !== 'vector') fail(e.pos.start, `subquery is only allowed on instant vector, got ${t} instead`);
      return;
    }
    case 'aggregate':
      checkTypes(e.expr, q);
      expect(e.expr, 'vector', 'aggregation expression');
      if (e.param) {
        checkTypes(e.param, q);
        expect(e.param, e.op === 'count_values' ? 'string' : 'scalar', 'aggregation parameter');
      }
      return;
    case 'call': {
      const sig = FUNCTIONS[e.func];
      const n = e.args.length;
      const min = sig.variadic === 0 ? sig.args.length : sig.args.length - 1;
      const max =
        sig.variadic === 0 ? sig.args.length : sig.variadic < 0 ? Infinity : sig.args.length - 1 + sig.variadic;
      const name = JSON.stringify(e.func);
      if (sig.variadic === 0 && n !== min)
        fail(e.pos.start, `expected ${min} argument(s) in call to ${name}, got ${n}`);
      if (n < min) fail(e.pos.start, `expected at least ${min} argument(s) in call to ${name}, got ${n}`);
      if (n > max) fail(e.pos.start, `expected at most ${max} argument(s) in call to ${name}, got ${n}`);
      e.args.forEach((arg, i) => {
        checkTypes(arg, q);
        expect(arg, sig.args[Math.min(i, sig.args.length - 1)], `call to function ${name}`);
      });
      return;
    }
    case 'binary': {
      checkTypes(e.lhs, q);
      checkTypes(e.rhs, q);
      const lt = typeOf(e.lhs);
      const rt = typeOf(e.rhs);
      const opAt = e.opPos.start;
      if (e.returnBool && !isComparison(e.op)) fail(opAt, 'bool modifier can only be used on comparison operators');
      if (isComparison(e.op) && lt === 'scalar' && rt === 'scalar' && !e.returnBool) {
        fail(opAt, 'comparisons between scalars must use BOOL modifier');
      }
      if (e.matching) {
        const on = new Set(e.matching.labels);
        for (const l of e.matching.include) {
          if (e.matching.on && on.has(l))
            fail(opAt, `label ${JSON.stringify(l)} must not occur in ON and GROUP clause at once`);
        }
      }
      if (lt !== 'scalar' && lt !== 'vector')
        fail(e.lhs.pos.start, 'binary expression must contain only scalar and instant vector types');
      if (rt !== 'scalar' && rt !== 'vector')
        fail(e.rhs.pos.start, 'binary expression must contain only scalar and instant vector types');
      const bothVectors = lt === 'vector' && rt === 'vector';
      if (!bothVectors) {
        if (e.matching && (e.matching.labels.length > 0 || e.matching.on || e.matching.card !== 'one-to-one')) {
          fail(e.pos.start, 'vector matching only allowed between instant vectors');
        }
        e.matching = undefined;
        if (isSetOp(e.op))
          fail(e.pos.start, `set operator ${JSON.stringify(e.op)} not allowed in binary scalar expression`);
        return;
      }
      if (isSetOp(e.op)) {
        if (e.matching && e.matching.card !== 'one-to-one')
          fail(e.pos.start, `no grouping allowed for ${JSON.stringify(e.op)} operation`);
        e.matching = {
          card: 'many-to-many',
          on: e.matching?.on ?? false,
          labels: e.matching?.labels ?? [],
          include: [],
        };
      } else if (!e.matching) {
        e.matching = { card: 'one-to-one', on: false, labels: [], include: [] };
      }
      return;
    }
  }
}
