// Aggregation operators (sum, avg, min, max, count, group, stddev, stdvar, topk, bottomk, quantile,
// count_values, limitk) with by/without. Groups are fixed per series, so they are computed once;
// values are folded per step.
import type { AggregateExpr } from './ast';
import { CHECK_EVERY, checkAbort, type EvalContext } from './context';
import { PromQLError } from './errors';
import { quantile, variance } from './quantile';
import type { Labels } from './source';
import { NAME, SeriesBuilder, formatValue, labelsKey, newSeries, type StepSeries, type Value } from './values';

function groupLabels(labels: Labels, e: AggregateExpr): Labels {
  const out: Labels = {};
  if (e.without) {
    const dropped = new Set([...e.grouping, NAME]);
    for (const [k, v] of Object.entries(labels)) if (!dropped.has(k)) out[k] = v;
  } else {
    for (const l of e.grouping) if (labels[l]) out[l] = labels[l];
  }
  return out;
}

interface Group {
  labels: Labels;
  members: number[];
}

function groupSeries(series: StepSeries[], e: AggregateExpr): Group[] {
  const groups = new Map<string, Group>();
  series.forEach((s, i) => {
    const labels = groupLabels(s.labels, e);
    const key = labelsKey(labels);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { labels, members: [] }));
    g.members.push(i);
  });
  return [...groups.values()];
}

/** Folds one group's values at one step. */
function fold(op: AggregateExpr['op'], values: number[], param: number): number {
  switch (op) {
    case 'sum': {
      // Kahan summation, as Prometheus.
      let sum = 0;
      let c = 0;
      for (const v of values) {
        const t = sum + v;
        if (Math.abs(sum) >= Math.abs(v)) c += sum - t + v;
        else c += v - t + sum;
        sum = t;
      }
      return Number.isFinite(sum) ? sum + c : sum;
    }
    case 'avg':
      return fold('sum', values, param) / values.length;
    case 'min':
      return values.reduce((m, v) => (v < m || Number.isNaN(m) ? v : m));
    case 'max':
      return values.reduce((m, v) => (v > m || Number.isNaN(m) ? v : m));
    case 'count':
      return values.length;
    case 'group':
      return 1;
    case 'stddev':
    case 'stdvar': {
      const v = variance(values);
      return op === 'stdvar' ? v : Math.sqrt(v);
    }
    case 'quantile':
      return quantile(param, values);
    default:
      throw new PromQLError('execution', `aggregation ${op} folds no values`);
  }
}

export function evalAggregate(
  e: AggregateExpr,
  arg: Value,
  param: Value | undefined,
  n: number,
  ctx: EvalContext,
): Value {
  if (arg.type !== 'vector') throw new PromQLError('execution', 'aggregation over a non-vector');
  const series = arg.series;
  const scalarParam = param?.type === 'scalar' ? param.values : undefined;
  switch (e.op) {
    case 'topk':
    case 'bottomk':
    case 'limitk':
      return selectK(e, series, scalarParam!, n, ctx);
    case 'count_values':
      return countValues(e, series, param?.type === 'string' ? param.value : '', n, ctx);
    case 'limit_ratio':
      throw new PromQLError('bad_data', 'limit_ratio() is experimental and not supported');
    default:
      break;
  }
  if (e.op === 'quantile' && !scalarParam) throw new PromQLError('execution', 'quantile needs a scalar parameter');
  const groups = groupSeries(series, e);
  const out: StepSeries[] = [];
  const values: number[] = [];
  for (const g of groups) {
    const r = newSeries(g.labels, n);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (i % CHECK_EVERY === 0) checkAbort(ctx);
      values.length = 0;
      for (const j of g.members) if (series[j].has[i]) values.push(series[j].values[i]);
      if (values.length === 0) continue;
      r.values[i] = fold(e.op, values, scalarParam ? scalarParam[i] : 0);
      r.has[i] = 1;
      any = true;
    }
    if (any) out.push(r);
  }
  return { type: 'vector', series: out };
}

/** topk/bottomk (largest/smallest k of each group, NaN last) and limitk (any k, here the first by labels). */
function selectK(e: AggregateExpr, series: StepSeries[], k: Float64Array, n: number, ctx: EvalContext): Value {
  const groups = groupSeries(series, e);
  const kept = series.map((s) => newSeries(s.labels, n));
  const order = (a: number, b: number): number => {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
    if (Number.isNaN(b)) return -1;
    return e.op === 'topk' ? b - a : a - b;
  };
  for (let i = 0; i < n; i++) {
    if (i % CHECK_EVERY === 0) checkAbort(ctx);
    const ki = k[i];
    if (Number.isNaN(ki)) throw new PromQLError('execution', `Parameter value is NaN for ${e.op}`);
    const limit = Math.min(Math.floor(ki), series.length);
    if (!(limit >= 1)) continue;
    for (const g of groups) {
      const present = g.members.filter((j) => series[j].has[i]);
      if (e.op !== 'limitk') present.sort((a, b) => order(series[a].values[i], series[b].values[i]));
      for (const j of present.slice(0, limit)) {
        kept[j].has[i] = 1;
        kept[j].values[i] = series[j].values[i];
      }
    }
  }
  return { type: 'vector', series: kept.filter((s) => s.has.some((h) => h === 1)) };
}

/** count_values("label", v): per group, how many series have each value, the value as a label. */
function countValues(e: AggregateExpr, series: StepSeries[], label: string, n: number, ctx: EvalContext): Value {
  if (label === '') {
    throw new PromQLError('execution', `invalid label name ${JSON.stringify(label)}`);
  }
  const groupOf = series.map((s) => groupLabels(s.labels, e));
  const out = new SeriesBuilder(n);
  for (let i = 0; i < n; i++) {
    if (i % CHECK_EVERY === 0) checkAbort(ctx);
    const counts = new Map<string, { labels: Labels; count: number }>();
    series.forEach((s, j) => {
      if (!s.has[i]) return;
      const labels = { ...groupOf[j], [label]: formatValue(s.values[i]) };
      const key = labelsKey(labels);
      const c = counts.get(key);
      if (c) c.count++;
      else counts.set(key, { labels, count: 1 });
    });
    for (const [key, c] of counts) out.set(c.labels, i, c.count, key);
  }
  return { type: 'vector', series: out.series() };
}
