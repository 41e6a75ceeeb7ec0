// Instant and range queries: parse, fetch every selector's data once, evaluate over the time grid,
// and shape the result as Prometheus's HTTP API does (values as text, series sorted by labels).
import type { Expr } from './ast';
import { checkAbort, type EvalContext } from './context';
import { PromQLError } from './errors';
import { evaluate } from './eval';
import { parsePromQL } from './parse';
import { fetchSelectors } from './selectors';
import type { Labels, PromSource } from './source';
import { typeOf } from './typecheck';
import { compareLabels, formatValue, type MatrixValue, type Value } from './values';

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

/** Prometheus's API refuses range queries of more points per series than this. */
const MAX_POINTS = 11_000;
const SORTING_FUNCTIONS = new Set(['sort', 'sort_desc', 'sort_by_label', 'sort_by_label_desc']);

function newContext(source: PromSource, startMs: number, endMs: number, opts: QueryOptions): EvalContext {
  return {
    source,
    signal: opts.signal,
    lookbackMs: opts.lookbackMs ?? 300_000,
    maxSeries: opts.maxSeries ?? Infinity,
    startMs,
    endMs,
    fetched: new Map(),
    seriesFetched: 0,
  };
}

async function run(expr: Expr, times: Float64Array, ctx: EvalContext): Promise<Value> {
  checkAbort(ctx);
  await fetchSelectors(expr, times, ctx);
  const v = evaluate(expr, times, ctx);
  checkAbort(ctx);
  return v;
}

const seconds = (ms: number): number => ms / 1000;

function bySeriesLabels<T extends { metric: Labels }>(a: T, b: T): number {
  return compareLabels(a.metric, b.metric);
}

/** The points of a range vector inside each series' window at the (single) evaluation time. */
function matrixPoints(m: MatrixValue): QueryData {
  const t = m.evalTimes[0];
  const result = [];
  for (const s of m.series) {
    const values: PromValue[] = [];
    for (let k = 0; k < s.times.length; k++) {
      if (s.times[k] > t - m.windowMs && s.times[k] <= t) values.push([seconds(s.times[k]), formatValue(s.values[k])]);
    }
    if (values.length > 0) result.push({ metric: s.labels, values });
  }
  return { resultType: 'matrix', result: result.sort(bySeriesLabels) };
}

export async function instantQuery(
  source: PromSource,
  query: string,
  timeMs: number,
  opts: QueryOptions,
): Promise<QueryData> {
  const expr = parsePromQL(query);
  const ctx = newContext(source, timeMs, timeMs, opts);
  const v = await run(expr, Float64Array.of(timeMs), ctx);
  const ts = seconds(timeMs);
  switch (v.type) {
    case 'scalar':
      return { resultType: 'scalar', result: [ts, formatValue(v.values[0])] };
    case 'string':
      return { resultType: 'string', result: [ts, v.value] };
    case 'matrix':
      return matrixPoints(v);
    case 'vector': {
      const result = v.series
        .filter((s) => s.has[0])
        .map((s) => ({ metric: s.labels, value: [ts, formatValue(s.values[0])] as PromValue }));
      let top = expr;
      while (top.type === 'paren') top = top.expr;
      if (!(top.type === 'call' && SORTING_FUNCTIONS.has(top.func))) result.sort(bySeriesLabels);
      return { resultType: 'vector', result };
    }
  }
}

export async function rangeQuery(
  source: PromSource,
  query: string,
  startMs: number,
  endMs: number,
  stepMs: number,
  opts: QueryOptions,
): Promise<QueryData> {
  const expr = parsePromQL(query);
  if (!(stepMs > 0))
    throw new PromQLError(
      'bad_data',
      'zero or negative query resolution step widths are not accepted. Try a positive integer',
    );
  if (endMs < startMs) throw new PromQLError('bad_data', 'end timestamp must not be before start time');
  const n = Math.floor((endMs - startMs) / stepMs) + 1;
  if (n > MAX_POINTS) {
    throw new PromQLError(
      'bad_data',
      'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
    );
  }
  const type = typeOf(expr);
  if (type !== 'scalar' && type !== 'vector') {
    const documented = type === 'matrix' ? 'range vector' : type;
    throw new PromQLError(
      'bad_data',
      `invalid expression type ${JSON.stringify(documented)} for range query, must be Scalar or instant Vector`,
    );
  }
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = startMs + i * stepMs;
  const ctx = newContext(source, startMs, endMs, opts);
  const v = await run(expr, times, ctx);
  if (v.type === 'scalar') {
    return {
      resultType: 'matrix',
      result: [{ metric: {}, values: Array.from(times, (t, i) => [seconds(t), formatValue(v.values[i])]) }],
    };
  }
  if (v.type !== 'vector') throw new PromQLError('execution', `range query evaluated to ${v.type}`);
  const result = [];
  for (const s of v.series) {
    const values: PromValue[] = [];
    for (let i = 0; i < n; i++) if (s.has[i]) values.push([seconds(times[i]), formatValue(s.values[i])]);
    if (values.length > 0) result.push({ metric: s.labels, values });
  }
  return { resultType: 'matrix', result: result.sort(bySeriesLabels) };
}
