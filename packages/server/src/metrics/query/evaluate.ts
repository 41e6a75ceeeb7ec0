import { createHash } from 'node:crypto';
import { printExpr, printFilter, type MetricExpr } from '@lantern/shared';
import type { Agg } from './compileSeries';
import { GROUP_ID, type GroupNames } from './groupNames';
import { convertLiteral, UnitError } from './unitConversion';
import type { Mode, PExpr, PlannedColumn, TableFunc } from './plan';
import { bucketMinutes, type TimeGrid } from './timeRange';

/**
 * Evaluates planned columns over the rows of their timeseries queries (reference query §3.4):
 * arithmetic between series joins them by their attributes, numbers combine with every value,
 * `per_min`/`per_sec`/`delta` post-process values. In table mode each series is first reduced to
 * one number (by its table func, else by its aggregation), then the arithmetic runs on those.
 */
export interface Series {
  attrs: Record<string, string>;
  /** Attribute names in grouping order (stored order for `group by all`). */
  keys: string[];
  values: number[];
}

export interface SeriesSet {
  kind: 'set';
  unit: string;
  /** Grouping signature; sets join only when equal. */
  grouping: string;
  series: Series[];
  reduced: boolean;
  reducer: Reducer;
  /**
   * A count of events (a counter's or histogram's sum or count): where a series has no row, or a
   * group no series, nothing happened, so arithmetic reads 0 there (errors / requests with no
   * error is 0, not a gap). Gauges and averages have no such reading: theirs stay gaps.
   */
  counts: boolean;
  /** Table mode: how the range became one number, for the column header ("total over the range"). */
  over?: string;
}

type Reducer = TableFunc | 'sum';
type Value = { kind: 'num'; value: number; unit: 'none' | 'duration' | 'bytes'; text: string } | SeriesSet;

export class EvalError extends Error {}

export interface ColumnResult {
  column: PlannedColumn;
  set: SeriesSet | null;
  scalar: number | null;
  error: string;
}

export interface EvalContext {
  mode: Mode;
  grid: TimeGrid;
  /** Rows of each planned query, turned into series. */
  results: Series[][];
  groupings: string[];
}

export function evaluateColumns(columns: readonly PlannedColumn[], ctx: EvalContext): ColumnResult[] {
  const done = new Map<string, Value>();
  const out: ColumnResult[] = [];
  for (const column of columns) {
    try {
      let v = evaluate(column.expr, ctx, done);
      if (v.kind === 'set' && ctx.mode !== 'timeseries') v = reduce(v);
      done.set(column.name, v);
      out.push({ column, set: v.kind === 'set' ? v : null, scalar: v.kind === 'num' ? v.value : null, error: '' });
    } catch (err) {
      if (!(err instanceof EvalError) && !(err instanceof UnitError)) throw err;
      out.push({ column, set: null, scalar: null, error: err.message });
    }
  }
  return out;
}

function evaluate(e: PExpr, ctx: EvalContext, done: Map<string, Value>): Value {
  switch (e.k) {
    case 'num':
      return { kind: 'num', value: e.value, unit: e.unit, text: e.text };
    case 'ref': {
      if (e.name === '_minutes') return { kind: 'num', value: ctx.grid.bucketMin, unit: 'none', text: e.name };
      if (e.name === '_seconds') return { kind: 'num', value: ctx.grid.bucketMin * 60, unit: 'none', text: e.name };
      const v = done.get(e.name);
      if (!v) throw new EvalError(`can't resolve name "${e.name}"`);
      return v;
    }
    case 'leaf':
      return {
        kind: 'set',
        unit: e.unit,
        grouping: ctx.groupings[e.query],
        series: ctx.results[e.query].map((s) => ({ ...s, values: s.values.slice() })),
        reduced: false,
        reducer: defaultReducer(e.agg, e.explicitAgg, e.instrument),
        counts: countsEvents(e.agg, e.explicitAgg, e.instrument),
      };
    case 'table': {
      const v = evaluate(e.arg, ctx, done);
      if (v.kind !== 'set' || ctx.mode === 'timeseries') return v;
      return reduce({ ...v, reducer: e.func });
    }
    case 'op': {
      const v = evaluate(e.arg, ctx, done);
      if (v.kind !== 'set') throw new EvalError(`"${e.func}" can be only applied to a timeseries`);
      return applyOp(e.func, v, ctx);
    }
    case 'bin': {
      let l = evaluate(e.left, ctx, done);
      let r = evaluate(e.right, ctx, done);
      if (ctx.mode !== 'timeseries') {
        if (l.kind === 'set') l = reduce(l);
        if (r.kind === 'set') r = reduce(r);
      }
      return binary(e.op, l, r);
    }
  }
}

function defaultReducer(agg: Agg, explicit: boolean, instrument: string): Reducer {
  if (!explicit) return instrument === 'counter' ? 'sum' : 'last';
  if (agg === 'sum' || agg === 'count') return 'sum';
  if (agg === 'min' || agg === 'max') return agg;
  if (agg === 'uniq') return 'last';
  return 'avg';
}

function countsEvents(agg: Agg, explicit: boolean, instrument: string): boolean {
  if (instrument === 'gauge' || instrument === 'additive') return false;
  return explicit ? agg === 'sum' || agg === 'count' : instrument === 'counter';
}

function reduceValues(values: number[], how: Reducer): number {
  const xs = values.filter((v) => !Number.isNaN(v));
  if (xs.length === 0) return NaN;
  switch (how) {
    case 'min':
      return Math.min(...xs);
    case 'max':
      return Math.max(...xs);
    case 'sum':
      return xs.reduce((a, b) => a + b, 0);
    case 'avg':
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    case 'last':
      return xs[xs.length - 1];
  }
}

const REDUCED: Record<Reducer, string> = {
  sum: 'total over the range',
  avg: 'avg over the range',
  min: 'min over the range',
  max: 'max over the range',
  last: 'last value',
};

function reduce(v: SeriesSet): SeriesSet {
  if (v.reduced) return v;
  return {
    ...v,
    reduced: true,
    over: REDUCED[v.reducer],
    series: v.series.map((s) => ({ ...s, values: [reduceValues(s.values, v.reducer)] })),
  };
}

function applyOp(func: 'per_min' | 'per_sec' | 'delta', v: SeriesSet, ctx: EvalContext): SeriesSet {
  if (func === 'delta') {
    const delta = (values: number[]) => {
      let prev = NaN;
      return values.map((x) => {
        const d = Number.isNaN(prev) || Number.isNaN(x) ? 0 : Math.max(0, x - prev);
        if (!Number.isNaN(x)) prev = x;
        return d;
      });
    };
    if (ctx.mode === 'timeseries') return { ...v, series: v.series.map((s) => ({ ...s, values: delta(s.values) })) };
    return v.reduced
      ? v
      : {
          ...v,
          reduced: true,
          over: 'increase over the range',
          series: v.series.map((s) => ({ ...s, values: [delta(s.values).reduce((a, b) => a + b, 0)] })),
        };
  }
  const perSec = func === 'per_sec';
  const unit = perSec ? 60 : 1;
  if (ctx.mode === 'timeseries') {
    // Each bucket by the minutes it sums: a last bucket of finished minutes cut short is not a drop.
    const divs = Array.from({ length: ctx.grid.points }, (_, i) => bucketMinutes(ctx.grid, i) * unit);
    return { ...v, series: v.series.map((s) => ({ ...s, values: s.values.map((x, i) => x / divs[i]) })) };
  }
  // Over a whole range: the total divided by the range length (a rate over the range; the
  // reference divided the mean of non-empty buckets, which overstates sparse series).
  const total = v.reduced
    ? v
    : { ...v, reduced: true, series: v.series.map((s) => ({ ...s, values: [reduceValues(s.values, 'sum')] })) };
  const div = ((ctx.grid.complete.getTime() - ctx.grid.gte.getTime()) / 60_000) * unit;
  const over = `avg per ${perSec ? 'second' : 'minute'} over the range`;
  return { ...total, over, series: total.series.map((s) => ({ ...s, values: s.values.map((x) => x / div) })) };
}

type BinOp = Extract<PExpr, { k: 'bin' }>['op'];

function combine(op: BinOp, a: number, b: number): number {
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  switch (op) {
    case '+':
    case '-':
    case '*': {
      if (an && bn) return NaN;
      const x = an ? 0 : a;
      const y = bn ? 0 : b;
      return op === '+' ? x + y : op === '-' ? x - y : x * y;
    }
    case '/':
      return an || bn || b === 0 ? NaN : a / b;
    case '%':
      return an || bn || Math.trunc(b) === 0 ? NaN : Math.trunc(a) % Math.trunc(b);
    case '==':
      return an || bn ? NaN : Number(a === b);
    case '!=':
      return an || bn ? NaN : Number(a !== b);
    case '<':
      return an || bn ? NaN : Number(a < b);
    case '<=':
      return an || bn ? NaN : Number(a <= b);
    case '>':
      return an || bn ? NaN : Number(a > b);
    case '>=':
      return an || bn ? NaN : Number(a >= b);
    case 'and':
      return !an && !bn && a !== 0 && b !== 0 ? b : 0;
    case 'or':
      return !an && a !== 0 ? a : !bn && b !== 0 ? b : 0;
  }
}

function binary(op: BinOp, l: Value, r: Value): Value {
  if (l.kind === 'num' && r.kind === 'num')
    return { kind: 'num', value: combine(op, l.value, r.value), unit: 'none', text: '' };
  if (l.kind === 'set' && r.kind === 'num') return mapSet(l, convertLiteral(r, l.unit), (x, y) => combine(op, x, y));
  if (l.kind === 'num' && r.kind === 'set') return mapSet(r, convertLiteral(l, r.unit), (x, y) => combine(op, y, x));
  const a = l as SeriesSet;
  const b = r as SeriesSet;
  if (a.series.length && b.series.length && a.grouping !== b.grouping) {
    if (a.grouping === 'all' || b.grouping === 'all')
      throw new EvalError('joining timeseries with `group by all` is forbidden');
    throw new EvalError("can't join timeseries with different grouping");
  }
  // Joined by attributes; a series missing on one side meets NaN (so + and - count it as 0), or 0
  // where that side counts events.
  const byKey = new Map<string, { l?: Series; r?: Series }>();
  for (const s of a.series) byKey.set(seriesKey(s), { l: s });
  for (const s of b.series) {
    const k = seriesKey(s);
    byKey.set(k, { ...byKey.get(k), r: s });
  }
  const len = Math.max(a.series[0]?.values.length ?? 0, b.series[0]?.values.length ?? 0);
  const nan = new Array<number>(len).fill(NaN);
  const side = (set: SeriesSet, s: Series | undefined) =>
    set.counts ? (s?.values ?? nan).map((v) => (Number.isNaN(v) ? 0 : v)) : (s?.values ?? nan);
  const series: Series[] = [];
  for (const { l: x, r: y } of byKey.values()) {
    const base = (x ?? y)!;
    const xv = side(a, x);
    const yv = side(b, y);
    series.push({ attrs: base.attrs, keys: base.keys, values: xv.map((v, i) => combine(op, v, yv[i])) });
  }
  const unit = (op === '+' || op === '-') && a.unit === b.unit ? a.unit : '';
  return {
    kind: 'set',
    unit,
    grouping: a.series.length ? a.grouping : b.grouping,
    series,
    reduced: a.reduced && b.reduced,
    reducer: a.reducer,
    counts: false,
    // Totals added are a total; a ratio of totals (or a mix) is only "over the range".
    over:
      a.reduced && b.reduced
        ? (op === '+' || op === '-') && a.over === b.over
          ? a.over
          : 'over the range'
        : undefined,
  };
}

function mapSet(s: SeriesSet, n: number, f: (x: number, n: number) => number): SeriesSet {
  return { ...s, series: s.series.map((x) => ({ ...x, values: x.values.map((v) => f(v, n)) })) };
}

export function seriesKey(s: Series): string {
  return s.keys.map((k) => `${k}=${s.attrs[k]}`).join(',');
}

/**
 * `$a{filters,attrs}` per occurrence, or `alias{attrs}` for aliased columns (reference §3.7); a
 * `.group_id` with a known name reads as the name (`p99{service.name=shop,GET /cart}`).
 */
export function seriesName(column: PlannedColumn, s: Series, names: GroupNames = new Map()): string {
  const attrs = s.keys.map((k) => {
    const name = k === GROUP_ID ? names.get(s.attrs[k]) : undefined;
    return name ?? `${k}=${s.attrs[k]}`;
  });
  if (column.aliased) return attrs.length ? `${column.name}{${attrs.join(',')}}` : column.name;
  return printExpr(column.source, (series: Extract<MetricExpr, { kind: 'series' }>) => {
    const inner = [...series.filters.map(printFilter), ...attrs];
    return inner.length ? `$${series.alias}{${inner.join(',')}}` : `$${series.alias}`;
  });
}

export function seriesId(name: string): string {
  return createHash('sha1').update(name).digest().readBigUInt64BE(0).toString();
}
