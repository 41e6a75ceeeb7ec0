// Function calls: dispatches range functions (rangeFunctions.ts), histogram_quantile, the label
// functions, and implements the functions of instant vectors and scalars. As in Prometheus, functions
// that compute a new value drop __name__; sort*, label_* and *_over_time picks keep it.
import type { CallExpr, Expr } from './ast';
import { type EvalContext } from './context';
import { PromQLError } from './errors';
import { perHistogram } from './histogram';
import { bucketFraction, bucketQuantile } from './quantile';
import { labelJoin, labelReplace } from './labelFunctions';
import { absentOverTime, evalRangeFunction, isRangeFunction } from './rangeFunctions';
import { evalVectorSelector } from './selectors';
import type { Labels } from './source';
import {
  compareLabels,
  dropName,
  mergeSameLabels,
  newSeries,
  type ScalarValue,
  type StepSeries,
  type Value,
  type VectorValue,
} from './values';

type Eval = (e: Expr) => Value;

const MATH: Record<string, (x: number) => number> = {
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  exp: Math.exp,
  ln: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  sqrt: Math.sqrt,
  sgn: (x) => (x > 0 ? 1 : x < 0 ? -1 : x),
  acos: Math.acos,
  acosh: Math.acosh,
  asin: Math.asin,
  asinh: Math.asinh,
  atan: Math.atan,
  atanh: Math.atanh,
  cos: Math.cos,
  cosh: Math.cosh,
  sin: Math.sin,
  sinh: Math.sinh,
  tan: Math.tan,
  tanh: Math.tanh,
  deg: (x) => (x * 180) / Math.PI,
  rad: (x) => (x * Math.PI) / 180,
};

const DATE: Record<string, (d: Date) => number> = {
  day_of_month: (d) => d.getUTCDate(),
  day_of_week: (d) => d.getUTCDay(),
  day_of_year: (d) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1,
  days_in_month: (d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate(),
  hour: (d) => d.getUTCHours(),
  minute: (d) => d.getUTCMinutes(),
  month: (d) => d.getUTCMonth() + 1,
  year: (d) => d.getUTCFullYear(),
};

/** Applies f to every value of every series; the results lose __name__. */
function mapValues(v: VectorValue, f: (x: number, step: number) => number): VectorValue {
  const series = v.series.map((s) => {
    const out = newSeries(dropName(s.labels), s.values.length);
    for (let i = 0; i < s.values.length; i++) {
      if (!s.has[i]) continue;
      out.values[i] = f(s.values[i], i);
      out.has[i] = 1;
    }
    return out;
  });
  return { type: 'vector', series: mergeSameLabels(series) };
}

function vectorArg(v: Value): VectorValue {
  if (v.type !== 'vector') throw new PromQLError('execution', `expected an instant vector, got ${v.type}`);
  return v;
}
function scalarArg(v: Value): Float64Array {
  if (v.type !== 'scalar') throw new PromQLError('execution', `expected a scalar, got ${v.type}`);
  return v.values;
}
function stringArg(v: Value): string {
  if (v.type !== 'string') throw new PromQLError('execution', `expected a string, got ${v.type}`);
  return v.value;
}

/** Labels for absent(): the selector's equality matchers, except __name__ and labels matched twice. */
function absentLabels(arg: Expr): Labels {
  const inner = arg.type === 'matrixSelector' ? arg.vector : arg;
  if (inner.type !== 'vectorSelector') return {};
  const seen = new Map<string, number>();
  for (const m of inner.matchers) seen.set(m.name, (seen.get(m.name) ?? 0) + 1);
  const out: Labels = {};
  for (const m of inner.matchers) {
    if (m.type === '=' && m.name !== '__name__' && seen.get(m.name) === 1) out[m.name] = m.value;
  }
  return out;
}

function absentSeries(labels: Labels, absent: Uint8Array): VectorValue {
  const s = newSeries(labels, absent.length);
  for (let i = 0; i < absent.length; i++) {
    if (absent[i]) {
      s.has[i] = 1;
      s.values[i] = 1;
    }
  }
  return { type: 'vector', series: absent.some((a) => a === 1) ? [s] : [] };
}

function sortSeries(series: StepSeries[], desc: boolean): StepSeries[] {
  // An instant query has one step: order by its value (NaN last), as Prometheus's sort does.
  return [...series].sort((a, b) => {
    const x = a.values[0];
    const y = b.values[0];
    if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
    if (Number.isNaN(y)) return -1;
    return desc ? y - x : x - y;
  });
}

function sortByLabel(series: StepSeries[], labels: string[], desc: boolean): StepSeries[] {
  const collator = new Intl.Collator('en', { numeric: true });
  return [...series].sort((a, b) => {
    for (const l of labels) {
      const c = collator.compare(a.labels[l] ?? '', b.labels[l] ?? '');
      if (c !== 0) return desc ? -c : c;
    }
    const c = compareLabels(a.labels, b.labels);
    return desc ? -c : c;
  });
}

export function evalCall(e: CallExpr, times: Float64Array, ctx: EvalContext, ev: Eval): Value {
  const n = times.length;
  const f = e.func;
  if (f === 'absent_over_time') {
    const m = ev(e.args[0]);
    if (m.type !== 'matrix') throw new PromQLError('execution', 'absent_over_time needs a range vector');
    return absentSeries(absentLabels(e.args[0]), absentOverTime(m));
  }
  if (isRangeFunction(f)) {
    // quantile_over_time(φ, m) has the scalar first; predict_linear(m, t) second.
    const matrixAt = f === 'quantile_over_time' ? 1 : 0;
    const m = ev(e.args[matrixAt]);
    if (m.type !== 'matrix') throw new PromQLError('execution', `${f} needs a range vector`);
    const param = e.args.length > 1 ? scalarArg(ev(e.args[1 - matrixAt])) : undefined;
    return evalRangeFunction(f, m, param, ctx);
  }
  if (f in MATH) return mapValues(vectorArg(ev(e.args[0])), MATH[f]);
  if (f in DATE) {
    const fn = DATE[f];
    if (e.args.length === 0) {
      const s = newSeries({}, n);
      for (let i = 0; i < n; i++) {
        s.values[i] = fn(new Date(times[i]));
        s.has[i] = 1;
      }
      return { type: 'vector', series: [s] };
    }
    return mapValues(vectorArg(ev(e.args[0])), (x) => (Number.isFinite(x) ? fn(new Date(x * 1000)) : NaN));
  }
  switch (f) {
    case 'time':
      return { type: 'scalar', values: times.map((t) => t / 1000) };
    case 'pi':
      return { type: 'scalar', values: new Float64Array(n).fill(Math.PI) };
    case 'vector': {
      const values = scalarArg(ev(e.args[0]));
      return {
        type: 'vector',
        series: [{ labels: {}, values: Float64Array.from(values), has: new Uint8Array(n).fill(1) }],
      };
    }
    case 'scalar': {
      const v = vectorArg(ev(e.args[0]));
      const out: ScalarValue = { type: 'scalar', values: new Float64Array(n).fill(NaN) };
      for (let i = 0; i < n; i++) {
        const present = v.series.filter((s) => s.has[i]);
        if (present.length === 1) out.values[i] = present[0].values[i];
      }
      return out;
    }
    case 'timestamp': {
      const arg = e.args[0].type === 'paren' ? e.args[0].expr : e.args[0];
      // Of a selector, the time of the sample (its minute's end); of anything else, the evaluation time.
      if (arg.type === 'vectorSelector') return mapValues(evalVectorSelector(arg, times, ctx, true), (x) => x);
      return mapValues(vectorArg(ev(e.args[0])), (_x, i) => times[i] / 1000);
    }
    case 'absent': {
      const v = vectorArg(ev(e.args[0]));
      const absent = new Uint8Array(n).fill(1);
      for (const s of v.series) for (let i = 0; i < n; i++) if (s.has[i]) absent[i] = 0;
      return absentSeries(absentLabels(e.args[0]), absent);
    }
    case 'clamp':
    case 'clamp_min':
    case 'clamp_max': {
      const v = vectorArg(ev(e.args[0]));
      const lo = f === 'clamp_max' ? undefined : scalarArg(ev(e.args[1]));
      const hi = f === 'clamp' ? scalarArg(ev(e.args[2])) : f === 'clamp_max' ? scalarArg(ev(e.args[1])) : undefined;
      const clamped = mapValues(v, (x, i) => Math.max(lo ? lo[i] : -Infinity, Math.min(hi ? hi[i] : Infinity, x)));
      if (!lo || !hi) return clamped;
      // clamp with min > max gives an empty vector at that step.
      for (const s of clamped.series) for (let i = 0; i < n; i++) if (lo[i] > hi[i]) s.has[i] = 0;
      return { type: 'vector', series: clamped.series.filter((s) => s.has.some((h) => h === 1)) };
    }
    case 'round': {
      const v = vectorArg(ev(e.args[0]));
      const to = e.args[1] ? scalarArg(ev(e.args[1])) : undefined;
      return mapValues(v, (x, i) => {
        const inverse = 1 / (to ? to[i] : 1);
        return Math.floor(x * inverse + 0.5) / inverse;
      });
    }
    case 'sort':
    case 'sort_desc':
      return { type: 'vector', series: sortSeries(vectorArg(ev(e.args[0])).series, f === 'sort_desc') };
    case 'sort_by_label':
    case 'sort_by_label_desc': {
      const labels = e.args.slice(1).map((a) => stringArg(ev(a)));
      return {
        type: 'vector',
        series: sortByLabel(vectorArg(ev(e.args[0])).series, labels, f === 'sort_by_label_desc'),
      };
    }
    case 'label_replace': {
      const [dst, repl, src, regex] = e.args.slice(1).map((a) => stringArg(ev(a)));
      return { type: 'vector', series: labelReplace(vectorArg(ev(e.args[0])).series, dst, repl, src, regex) };
    }
    case 'label_join': {
      const [dst, sep, ...srcs] = e.args.slice(1).map((a) => stringArg(ev(a)));
      return { type: 'vector', series: labelJoin(vectorArg(ev(e.args[0])).series, dst, sep, srcs) };
    }
    case 'histogram_quantile': {
      const q = scalarArg(ev(e.args[0]));
      const series = perHistogram(vectorArg(ev(e.args[1])).series, n, ctx, (b, i) => bucketQuantile(q[i], b));
      return { type: 'vector', series };
    }
    case 'histogram_fraction': {
      const lower = scalarArg(ev(e.args[0]));
      const upper = scalarArg(ev(e.args[1]));
      const series = perHistogram(vectorArg(ev(e.args[2])).series, n, ctx, (b, i) =>
        bucketFraction(lower[i], upper[i], b),
      );
      return { type: 'vector', series };
    }
  }
  throw new PromQLError('bad_data', `function ${JSON.stringify(f)} is not supported`);
}
