// Selectors: before evaluation, one walk over the tree finds the time span each selector is evaluated
// over (through offsets, @ and subqueries) and fetches its data ONCE from the source for the whole
// query; during evaluation, selectors only read those points. Points are stamped with the END of
// their minute (see SEMANTICS.md), counters carry both their deltas and their running totals.
import type { Expr, MatrixSelector, VectorSelector } from './ast';
import { CHECK_EVERY, checkAbort, checkSeriesCount, modifiedTimes, subqueryTimes, type EvalContext } from './context';
import { PromQLError } from './errors';
import { SeriesLimitError, type SelectRequest, type SourceSeries } from './source';
import type { MatrixValue, PointSeries, VectorValue } from './values';
import { newSeries } from './values';

export const MINUTE_MS = 60_000;

/** Range functions that read counters' per-minute deltas only, never their totals. */
const DELTA_ONLY = new Set(['rate', 'increase', 'irate', 'idelta', 'changes', 'resets']);
/** Range functions whose sum over series equals the function of the per-minute sums (push-down). */
const PUSHABLE = new Set(['rate', 'increase']);

/** A window shorter than a minute still holds the minute that ends in it. */
export function effectiveRangeMs(rangeMs: number): number {
  return Math.max(rangeMs, MINUTE_MS);
}

interface Need {
  lo: number;
  hi: number;
  needBase: boolean;
  sumBy: SelectRequest['sumBy'];
}

function unparen(e: Expr): Expr {
  return e.type === 'paren' ? unparen(e.expr) : e;
}

/** The selector of `rate|increase(<selector>[w])`, the shape whose sum the source can do. */
function pushableSelector(e: Expr): VectorSelector | undefined {
  const inner = unparen(e);
  if (inner.type !== 'call' || !PUSHABLE.has(inner.func)) return undefined;
  const arg = inner.args[0];
  return arg.type === 'matrixSelector' ? arg.vector : undefined;
}

function walk(
  e: Expr,
  times: Float64Array,
  ctx: EvalContext,
  needs: Map<VectorSelector, Need>,
  fn: string | undefined,
): void {
  const note = (sel: VectorSelector, back: number, needBase: boolean): void => {
    const t = modifiedTimes(sel, times, ctx);
    if (t.length === 0) return;
    // Modified times are ascending (or all one pinned time).
    const lo = t[0] - back;
    const hi = t[t.length - 1];
    const prev = needs.get(sel);
    if (prev) {
      prev.lo = Math.min(prev.lo, lo);
      prev.hi = Math.max(prev.hi, hi);
      prev.needBase ||= needBase;
    } else {
      needs.set(sel, { lo, hi, needBase, sumBy: undefined });
    }
  };
  switch (e.type) {
    case 'number':
    case 'string':
      return;
    case 'vectorSelector':
      return note(e, ctx.lookbackMs, true);
    case 'matrixSelector':
      // One more minute before the window: delta-like functions compare with the point before it.
      return note(e.vector, effectiveRangeMs(e.rangeMs) + MINUTE_MS, fn === undefined || !DELTA_ONLY.has(fn));
    case 'subquery':
      return walk(e.expr, subqueryTimes(e, modifiedTimes(e, times, ctx)), ctx, needs, undefined);
    case 'paren':
    case 'unary':
      return walk(e.expr, times, ctx, needs, undefined);
    case 'binary':
      walk(e.lhs, times, ctx, needs, undefined);
      return walk(e.rhs, times, ctx, needs, undefined);
    case 'aggregate': {
      if (e.param) walk(e.param, times, ctx, needs, undefined);
      walk(e.expr, times, ctx, needs, undefined);
      const sel = e.op === 'sum' ? pushableSelector(e.expr) : undefined;
      const need = sel && needs.get(sel);
      if (need) need.sumBy = { without: e.without, labels: [...e.grouping] };
      return;
    }
    case 'call':
      for (const a of e.args) walk(a, times, ctx, needs, e.func);
      return;
  }
}

function toPoints(s: SourceSeries): PointSeries {
  const n = s.times.length;
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = s.times[i] + MINUTE_MS;
  if (s.kind === 'gauge')
    return { labels: s.labels, times, values: s.values, deltas: undefined, resolutionMs: MINUTE_MS };
  const totals = new Float64Array(n);
  let sum = s.base;
  for (let i = 0; i < n; i++) {
    sum += s.values[i];
    totals[i] = sum;
  }
  return { labels: s.labels, times, values: totals, deltas: s.values, resolutionMs: MINUTE_MS };
}

/** Fetches every selector's data for the whole query, before evaluation. */
export async function fetchSelectors(e: Expr, times: Float64Array, ctx: EvalContext): Promise<void> {
  const needs = new Map<VectorSelector, Need>();
  walk(e, times, ctx, needs, undefined);
  for (const [sel, need] of needs) {
    checkAbort(ctx);
    // Points are wanted when their minute ENDS after lo, so when it starts at or after floor(lo).
    const startMs = Math.floor(need.lo / MINUTE_MS) * MINUTE_MS;
    const endMs = Math.floor(need.hi / MINUTE_MS) * MINUTE_MS;
    if (endMs <= startMs) {
      ctx.fetched.set(sel, { series: [], pushedDown: false });
      continue;
    }
    const req: SelectRequest = { matchers: sel.matchers, startMs, endMs, needBase: need.needBase };
    if (need.sumBy) req.sumBy = need.sumBy;
    let result;
    try {
      result = await ctx.source.select(req, ctx.signal);
    } catch (err) {
      if (err instanceof SeriesLimitError || err instanceof PromQLError) throw err;
      checkAbort(ctx);
      throw new PromQLError('execution', `error selecting series: ${(err as Error).message}`);
    }
    checkAbort(ctx);
    ctx.seriesFetched += result.series.length;
    checkSeriesCount(ctx, ctx.seriesFetched);
    ctx.fetched.set(sel, { series: result.series.map(toPoints), pushedDown: result.pushedDown });
  }
}

function fetchedOf(sel: VectorSelector, ctx: EvalContext): PointSeries[] {
  const f = ctx.fetched.get(sel);
  if (!f) throw new PromQLError('execution', 'selector evaluated before its data was fetched');
  return f.series;
}

/**
 * An instant vector selector: per step, the latest point within the lookback window (t - lookback, t];
 * with `timestamps`, the point's time in seconds instead of its value (for timestamp()).
 */
export function evalVectorSelector(
  sel: VectorSelector,
  times: Float64Array,
  ctx: EvalContext,
  timestamps = false,
): VectorValue {
  const evalTimes = modifiedTimes(sel, times, ctx);
  const n = times.length;
  const out = [];
  let checked = 0;
  for (const s of fetchedOf(sel, ctx)) {
    if (++checked % CHECK_EVERY === 0) checkAbort(ctx);
    const r = newSeries(s.labels, n);
    let any = false;
    for (let i = 0; i < n; i++) {
      const t = evalTimes[i];
      const j = lastAtOrBefore(s.times, t);
      if (j >= 0 && s.times[j] > t - ctx.lookbackMs) {
        r.values[i] = timestamps ? s.times[j] / 1000 : s.values[j];
        r.has[i] = 1;
        any = true;
      }
    }
    if (any) out.push(r);
  }
  return { type: 'vector', series: out };
}

export function evalMatrixSelector(m: MatrixSelector, times: Float64Array, ctx: EvalContext): MatrixValue {
  return {
    type: 'matrix',
    series: fetchedOf(m.vector, ctx),
    evalTimes: modifiedTimes(m.vector, times, ctx),
    rangeMs: m.rangeMs,
    windowMs: effectiveRangeMs(m.rangeMs),
  };
}

/** Index of the last time <= t in an ascending array, -1 if none. */
export function lastAtOrBefore(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
