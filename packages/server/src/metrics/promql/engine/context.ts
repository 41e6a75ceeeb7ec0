// What one query's evaluation carries: the source, the limits and the data each selector fetched.
import type { SubqueryExpr, VectorSelector, AtModifier } from './ast';
import { PromQLError } from './errors';
import { SeriesLimitError, type PromSource } from './source';
import type { PointSeries } from './values';

export interface Fetched {
  series: PointSeries[];
  /** The source summed the series per group (see SelectRequest.sumBy). */
  pushedDown: boolean;
}

export interface EvalContext {
  source: PromSource;
  signal: AbortSignal;
  lookbackMs: number;
  maxSeries: number;
  /** The query's start and end (what @ start() and @ end() mean). */
  startMs: number;
  endMs: number;
  fetched: Map<VectorSelector, Fetched>;
  seriesFetched: number;
}

/** Every so many steps or series, loops check the deadline. */
export const CHECK_EVERY = 256;

export function checkAbort(ctx: EvalContext): void {
  if (ctx.signal.aborted) throw new PromQLError('timeout', 'query timed out in expression evaluation');
}

export function checkSeriesCount(ctx: EvalContext, n: number): void {
  if (n > ctx.maxSeries) throw new SeriesLimitError(`query produces more than ${ctx.maxSeries} series`);
}

/** The time a selector or subquery is evaluated at for outer time t: `@` pins it, `offset` moves it back. */
export function modifiedTimes(
  node: { offsetMs: number; at: AtModifier | undefined },
  times: Float64Array,
  ctx: EvalContext,
): Float64Array {
  const out = new Float64Array(times.length);
  const at = node.at;
  const pinned =
    at === undefined ? undefined : at.kind === 'time' ? at.ms : at.kind === 'start' ? ctx.startMs : ctx.endMs;
  for (let i = 0; i < times.length; i++) out[i] = (pinned ?? times[i]) - node.offsetMs;
  return out;
}

/** Default step of a subquery without one: Prometheus's default evaluation interval. */
export const DEFAULT_SUBQUERY_STEP_MS = 60_000;

/**
 * The grid a subquery's inner expression is evaluated on: steps at absolute multiples of the step,
 * from the first after (earliest outer time - range) to the latest outer time, as Prometheus does.
 */
export function subqueryTimes(sq: SubqueryExpr, evalTimes: Float64Array): Float64Array {
  if (evalTimes.length === 0) return new Float64Array(0);
  const step = sq.stepMs || DEFAULT_SUBQUERY_STEP_MS;
  let min = Infinity;
  let max = -Infinity;
  for (const t of evalTimes) {
    min = Math.min(min, t);
    max = Math.max(max, t);
  }
  const from = min - sq.rangeMs;
  let start = Math.floor(from / step) * step;
  if (start <= from) start += step;
  const n = start > max ? 0 : Math.floor((max - start) / step) + 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = start + i * step;
  return out;
}
