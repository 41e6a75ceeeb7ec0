// The PromQL engine: parses a query with the official lezer grammar into our typed AST, type-checks it
// as Prometheus does, and evaluates it step by step over a time grid on data read once per selector
// from a PromSource. It knows nothing of storage or HTTP: the caller passes the source in.
// Minute-resolution semantics (what a point's time means, counters, windows) are in SEMANTICS.md.
import type { Expr } from './ast';
import type { LabelMatcher } from './source';

export type { Expr } from './ast';
export type { Labels, LabelMatcher, MatchType, PromSource, SelectRequest, SelectResult, SourceSeries } from './source';
export { SeriesLimitError } from './source';
export { PromQLError } from './errors';
export { parsePromQL } from './parse';
export { instantQuery, rangeQuery, type PromValue, type QueryData, type QueryOptions } from './query';

/** The selectors of an expression (for /api/v1/series-like uses and for tests). */
export function selectorsOf(expr: Expr): LabelMatcher[][] {
  switch (expr.type) {
    case 'number':
    case 'string':
      return [];
    case 'vectorSelector':
      return [expr.matchers];
    case 'matrixSelector':
      return [expr.vector.matchers];
    case 'subquery':
    case 'paren':
    case 'unary':
      return selectorsOf(expr.expr);
    case 'binary':
      return [...selectorsOf(expr.lhs), ...selectorsOf(expr.rhs)];
    case 'aggregate':
      return [...(expr.param ? selectorsOf(expr.param) : []), ...selectorsOf(expr.expr)];
    case 'call':
      return expr.args.flatMap(selectorsOf);
  }
}
