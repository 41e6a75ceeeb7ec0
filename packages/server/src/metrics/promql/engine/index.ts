// The PromQL engine: parses a query with the official lezer grammar into our typed AST, type-checks it
// as Prometheus does, and evaluates it step by step over a time grid on data read once per selector
// from a PromSource. It knows nothing of storage or HTTP: the caller passes the source in.
import type { Expr } from './ast';
import type { Labels, LabelMatcher, PromSource } from './source';

export type { Expr } from './ast';
export type { Labels, LabelMatcher, MatchType, PromSource, SelectRequest, SelectResult, SourceSeries } from './source';
export { SeriesLimitError } from './source';

/** [unix seconds, value text as Prometheus formats it: "1", "0.5", "NaN", "+Inf", "-Inf"]. */
export type PromValue = [number, string];
export type QueryData =
  | { resultType: 'matrix'; result: { metric: Labels; values: PromValue[] }[] }
  | { resultType: 'vector'; result: { metric: Labels; value: PromValue }[] }
  | { resultType: 'scalar'; result: PromValue }
  | { resultType: 'string'; result: PromValue };

export interface QueryOptions {
  signal: AbortSignal;
  /** Default 300000 (5 minutes). */
  lookbackMs?: number;
  maxSeries?: number;
}

/** errorType as in Prometheus's API: bad_data (parse/type errors, 400), execution (422), timeout (503). */
export class PromQLError extends Error {
  constructor(
    public errorType: 'bad_data' | 'execution' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'PromQLError';
  }
}

/** Throws PromQLError('bad_data', '1:5: parse error: ...'). */
export function parsePromQL(expr: string): Expr {
  throw new PromQLError('bad_data', `PromQL engine not built yet: ${expr}`);
}

export async function instantQuery(
  source: PromSource,
  expr: string,
  timeMs: number,
  opts: QueryOptions,
): Promise<QueryData> {
  (void source, timeMs, opts);
  throw new PromQLError('execution', `PromQL engine not built yet: ${expr}`);
}

export async function rangeQuery(
  source: PromSource,
  expr: string,
  startMs: number,
  endMs: number,
  stepMs: number,
  opts: QueryOptions,
): Promise<QueryData> {
  (void source, startMs, endMs, stepMs, opts);
  throw new PromQLError('execution', `PromQL engine not built yet: ${expr}`);
}

/** The selectors of an expression (for /api/v1/series-like uses and for tests). */
export function selectorsOf(expr: Expr): LabelMatcher[][] {
  void expr;
  return [];
}
