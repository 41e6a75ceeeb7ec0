// The evaluator: each node is evaluated once for every step of its grid (the query's, or a
// subquery's own), bottom-up, on data fetched beforehand (selectors.ts).
import type { Expr, SubqueryExpr } from './ast';
import { evalAggregate } from './aggregate';
import { evalBinary } from './binary';
import { checkAbort, checkSeriesCount, modifiedTimes, subqueryTimes, type EvalContext } from './context';
import { evalCall } from './functions';
import { evalMatrixSelector, evalVectorSelector } from './selectors';
import { dropName, mergeSameLabels, type MatrixValue, type PointSeries, type Value } from './values';

export function evaluate(e: Expr, times: Float64Array, ctx: EvalContext): Value {
  checkAbort(ctx);
  const v = evalNode(e, times, ctx);
  if (v.type === 'vector') checkSeriesCount(ctx, v.series.length);
  return v;
}

function evalNode(e: Expr, times: Float64Array, ctx: EvalContext): Value {
  switch (e.type) {
    case 'number':
      return { type: 'scalar', values: new Float64Array(times.length).fill(e.value) };
    case 'string':
      return { type: 'string', value: e.value };
    case 'paren':
      return evaluate(e.expr, times, ctx);
    case 'unary': {
      const v = evaluate(e.expr, times, ctx);
      if (e.op === '+') return v;
      if (v.type === 'scalar') return { type: 'scalar', values: v.values.map((x) => -x) };
      if (v.type !== 'vector') return v;
      const series = v.series.map((s) => ({ labels: dropName(s.labels), values: s.values.map((x) => -x), has: s.has }));
      return { type: 'vector', series: mergeSameLabels(series) };
    }
    case 'vectorSelector':
      return evalVectorSelector(e, times, ctx);
    case 'matrixSelector':
      return evalMatrixSelector(e, times, ctx);
    case 'subquery':
      return evalSubquery(e, times, ctx);
    case 'binary':
      return evalBinary(e, evaluate(e.lhs, times, ctx), evaluate(e.rhs, times, ctx), ctx);
    case 'aggregate': {
      const param = e.param ? evaluate(e.param, times, ctx) : undefined;
      return evalAggregate(e, evaluate(e.expr, times, ctx), param, times.length, ctx);
    }
    case 'call':
      return evalCall(e, times, ctx, (arg) => evaluate(arg, times, ctx));
  }
}

/** The inner expression on its own grid, turned into points that range functions window over. */
function evalSubquery(e: SubqueryExpr, times: Float64Array, ctx: EvalContext): MatrixValue {
  const evalTimes = modifiedTimes(e, times, ctx);
  const inner = subqueryTimes(e, evalTimes);
  const v = evaluate(e.expr, inner, ctx);
  const series: PointSeries[] = [];
  const step = e.stepMs || 60_000;
  if (v.type === 'vector') {
    for (const s of v.series) {
      const idx: number[] = [];
      for (let i = 0; i < inner.length; i++) if (s.has[i]) idx.push(i);
      series.push({
        labels: s.labels,
        times: Float64Array.from(idx, (i) => inner[i]),
        values: Float64Array.from(idx, (i) => s.values[i]),
        deltas: undefined,
        resolutionMs: step,
      });
    }
  }
  return { type: 'matrix', series, evalTimes, rangeMs: e.rangeMs, windowMs: e.rangeMs };
}
