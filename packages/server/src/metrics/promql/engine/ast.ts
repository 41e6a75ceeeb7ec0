// The typed PromQL syntax tree the engine evaluates, built from the lezer tree by parse.ts.
// Positions are character offsets into the query text (for error messages).
import type { LabelMatcher } from './source';

export type ValueType = 'scalar' | 'vector' | 'matrix' | 'string';

export interface Pos {
  start: number;
  end: number;
}

/** `@ <time>`, `@ start()`, `@ end()`. */
export type AtModifier = { kind: 'time'; ms: number } | { kind: 'start' } | { kind: 'end' };

export interface NumberLiteral {
  type: 'number';
  value: number;
  pos: Pos;
}
export interface StringLiteral {
  type: 'string';
  value: string;
  pos: Pos;
}
export interface VectorSelector {
  type: 'vectorSelector';
  /** The metric name when written before the braces (also present as a `__name__` matcher). */
  name: string | undefined;
  matchers: LabelMatcher[];
  offsetMs: number;
  at: AtModifier | undefined;
  pos: Pos;
}
export interface MatrixSelector {
  type: 'matrixSelector';
  vector: VectorSelector;
  rangeMs: number;
  pos: Pos;
}
export interface SubqueryExpr {
  type: 'subquery';
  expr: Expr;
  rangeMs: number;
  /** 0 = the query's step (range query) or the default evaluation interval. */
  stepMs: number;
  offsetMs: number;
  at: AtModifier | undefined;
  pos: Pos;
}
export interface ParenExpr {
  type: 'paren';
  expr: Expr;
  pos: Pos;
}
export interface UnaryExpr {
  type: 'unary';
  op: '+' | '-';
  expr: Expr;
  pos: Pos;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%' | '^' | 'atan2';
export type CompareOp = '==' | '!=' | '>' | '<' | '>=' | '<=';
export type SetOp = 'and' | 'or' | 'unless';
export type BinaryOp = ArithOp | CompareOp | SetOp;

export interface VectorMatching {
  card: 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';
  /** true: match on `labels`; false: ignoring `labels`. */
  on: boolean;
  labels: string[];
  /** Extra labels of group_left/group_right copied from the "one" side. */
  include: string[];
}
export interface BinaryExpr {
  type: 'binary';
  op: BinaryOp;
  lhs: Expr;
  rhs: Expr;
  /** `bool` modifier of a comparison. */
  returnBool: boolean;
  /** Set when both sides are instant vectors. */
  matching: VectorMatching | undefined;
  pos: Pos;
  /** Where the operator is written (for errors about it). */
  opPos: Pos;
}

export type AggregateOp =
  | 'sum'
  | 'avg'
  | 'min'
  | 'max'
  | 'count'
  | 'group'
  | 'stddev'
  | 'stdvar'
  | 'topk'
  | 'bottomk'
  | 'quantile'
  | 'count_values'
  | 'limitk'
  | 'limit_ratio';

export interface AggregateExpr {
  type: 'aggregate';
  op: AggregateOp;
  expr: Expr;
  param: Expr | undefined;
  grouping: string[];
  without: boolean;
  pos: Pos;
}
export interface CallExpr {
  type: 'call';
  func: string;
  args: Expr[];
  pos: Pos;
}

export type Expr =
  | NumberLiteral
  | StringLiteral
  | VectorSelector
  | MatrixSelector
  | SubqueryExpr
  | ParenExpr
  | UnaryExpr
  | BinaryExpr
  | AggregateExpr
  | CallExpr;
