// Functions of a range vector: rate, increase, irate, delta, idelta, deriv, predict_linear, changes,
// resets and the *_over_time family. Each step looks at the points in (t - window, t]; counters use
// their per-minute deltas where the answer is a sum of increases (see SEMANTICS.md).
import { CHECK_EVERY, checkAbort, type EvalContext } from './context';
import { PromQLError } from './errors';
import { quantile, variance } from './quantile';
import { lastAtOrBefore } from './selectors';
import {
  dropName,
  mergeSameLabels,
  newSeries,
  type MatrixValue,
  type PointSeries,
  type StepSeries,
  type Value,
} from './values';

/** The points of one series in one step's window, plus the point just before it (if recent). */
export interface Window {
  s: PointSeries;
  /** First and last index inside the window (lo > hi when empty). */
  lo: number;
  hi: number;
  /** The point just before the window, or -1. */
  prev: number;
  t: number;
  windowMs: number;
}

type RangeFn = (w: Window, param: number) => number | undefined;

function sumOf(values: Float64Array, lo: number, hi: number): number {
  let sum = 0;
  let c = 0;
  for (let k = lo; k <= hi; k++) {
    const v = values[k];
    const t = sum + v;
    if (Math.abs(sum) >= Math.abs(v)) c += sum - t + v;
    else c += v - t + sum;
    sum = t;
  }
  return Number.isFinite(sum) ? sum + c : sum;
}

/** The increase over the window: counters sum their deltas; other series add up rises, a fall counting as a reset. */
function increase(w: Window): number | undefined {
  const { s, lo, hi, prev } = w;
  if (s.deltas) return sumOf(s.deltas, lo, hi);
  const first = prev >= 0 ? prev : lo;
  if (hi - first < 1) return undefined;
  let inc = 0;
  for (let k = first + 1; k <= hi; k++) {
    const d = s.values[k] - s.values[k - 1];
    inc += d >= 0 ? d : s.values[k];
  }
  return inc;
}

/** Slope and intercept (at time t) of the least-squares line through the window's points, times in seconds. */
function linearRegression(w: Window): [number, number] | undefined {
  const { s, lo, hi, t } = w;
  const n = hi - lo + 1;
  if (n < 2) return undefined;
  let sumX = 0;
  let sumY = 0;
  let sumXY = 0;
  let sumX2 = 0;
  let constY = true;
  for (let k = lo; k <= hi; k++) {
    const x = (s.times[k] - t) / 1000;
    const y = s.values[k];
    if (y !== s.values[lo]) constY = false;
    sumX += x;
    sumY += y;
    sumXY += x * y;
    sumX2 += x * x;
  }
  if (constY) return [0, s.values[lo]];
  const covXY = sumXY - (sumX * sumY) / n;
  const varX = sumX2 - (sumX * sumX) / n;
  const slope = covXY / varX;
  const intercept = sumY / n - (slope * sumX) / n;
  return [slope, intercept];
}

function windowValues(w: Window): number[] {
  return Array.from(w.s.values.subarray(w.lo, w.hi + 1));
}

function extremeIndex(w: Window, better: (a: number, b: number) => boolean): number {
  let best = w.lo;
  for (let k = w.lo + 1; k <= w.hi; k++) {
    const v = w.s.values[k];
    const b = w.s.values[best];
    if (better(v, b) || (Number.isNaN(b) && !Number.isNaN(v))) best = k;
  }
  return best;
}

/** Each function gets a non-empty window (lo <= hi). */
const RANGE_FUNCTIONS: Record<string, RangeFn> = {
  rate: (w) => {
    const inc = increase(w);
    return inc === undefined ? undefined : inc / (w.windowMs / 1000);
  },
  increase: (w) => increase(w),
  delta: (w) => {
    const { s, lo, hi, prev } = w;
    if (s.deltas) return sumOf(s.deltas, lo, hi);
    const first = prev >= 0 ? prev : lo;
    return hi > first ? s.values[hi] - s.values[first] : undefined;
  },
  irate: (w) => {
    const { s, lo, hi } = w;
    if (s.deltas) return s.deltas[hi] / (s.resolutionMs / 1000);
    if (hi - lo < 1) return undefined;
    const last = s.values[hi];
    const before = s.values[hi - 1];
    const d = last < before ? last : last - before;
    return d / ((s.times[hi] - s.times[hi - 1]) / 1000);
  },
  idelta: (w) => {
    const { s, lo, hi } = w;
    if (s.deltas) return s.deltas[hi];
    return hi - lo < 1 ? undefined : s.values[hi] - s.values[hi - 1];
  },
  deriv: (w) => linearRegression(w)?.[0],
  predict_linear: (w, seconds) => {
    const r = linearRegression(w);
    return r && r[1] + r[0] * seconds;
  },
  changes: (w) => {
    const { s, lo, hi } = w;
    let n = 0;
    if (s.deltas) {
      for (let k = lo; k <= hi; k++) if (s.deltas[k] !== 0) n++;
      return n;
    }
    for (let k = lo + 1; k <= hi; k++) {
      const a = s.values[k - 1];
      const b = s.values[k];
      if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) n++;
    }
    return n;
  },
  resets: (w) => {
    const { s, lo, hi } = w;
    if (s.deltas) return 0;
    let n = 0;
    for (let k = lo + 1; k <= hi; k++) if (s.values[k] < s.values[k - 1]) n++;
    return n;
  },
  avg_over_time: (w) => sumOf(w.s.values, w.lo, w.hi) / (w.hi - w.lo + 1),
  sum_over_time: (w) => sumOf(w.s.values, w.lo, w.hi),
  count_over_time: (w) => w.hi - w.lo + 1,
  min_over_time: (w) => w.s.values[extremeIndex(w, (a, b) => a < b)],
  max_over_time: (w) => w.s.values[extremeIndex(w, (a, b) => a > b)],
  last_over_time: (w) => w.s.values[w.hi],
  first_over_time: (w) => w.s.values[w.lo],
  present_over_time: () => 1,
  stdvar_over_time: (w) => variance(windowValues(w)),
  stddev_over_time: (w) => Math.sqrt(variance(windowValues(w))),
  quantile_over_time: (w, q) => quantile(q, windowValues(w)),
  mad_over_time: (w) => {
    const values = windowValues(w);
    const median = quantile(0.5, values);
    return quantile(
      0.5,
      values.map((v) => Math.abs(v - median)),
    );
  },
  ts_of_first_over_time: (w) => w.s.times[w.lo] / 1000,
  ts_of_last_over_time: (w) => w.s.times[w.hi] / 1000,
  ts_of_min_over_time: (w) => w.s.times[extremeIndex(w, (a, b) => a <= b)] / 1000,
  ts_of_max_over_time: (w) => w.s.times[extremeIndex(w, (a, b) => a >= b)] / 1000,
};

/** Functions that keep the metric name (the value is one of the series' own samples). */
const KEEP_NAME = new Set(['last_over_time', 'first_over_time']);

export function isRangeFunction(name: string): boolean {
  return name in RANGE_FUNCTIONS;
}

/** Applies a range function per series per step; `param` is the scalar argument (quantile, seconds). */
export function evalRangeFunction(
  name: string,
  m: MatrixValue,
  param: Float64Array | undefined,
  ctx: EvalContext,
): Value {
  const fn = RANGE_FUNCTIONS[name];
  if (!fn) throw new PromQLError('execution', `unknown range function ${name}`);
  const n = m.evalTimes.length;
  const out: StepSeries[] = [];
  let checked = 0;
  for (const s of m.series) {
    if (++checked % CHECK_EVERY === 0) checkAbort(ctx);
    const r = newSeries(KEEP_NAME.has(name) ? s.labels : dropName(s.labels), n);
    let any = false;
    for (let i = 0; i < n; i++) {
      const t = m.evalTimes[i];
      const from = t - m.windowMs;
      const hi = lastAtOrBefore(s.times, t);
      const lo = lastAtOrBefore(s.times, from) + 1;
      if (lo > hi) continue;
      const prev = lo - 1 >= 0 && s.times[lo - 1] > from - s.resolutionMs ? lo - 1 : -1;
      const v = fn({ s, lo, hi, prev, t, windowMs: m.windowMs }, param ? param[i] : 0);
      if (v === undefined) continue;
      r.values[i] = v;
      r.has[i] = 1;
      any = true;
    }
    if (any) out.push(r);
  }
  return { type: 'vector', series: mergeSameLabels(out) };
}

/** absent_over_time: one series (labels from the selector's equality matchers) at steps where no series has a point. */
export function absentOverTime(m: MatrixValue): Uint8Array {
  const n = m.evalTimes.length;
  const absent = new Uint8Array(n).fill(1);
  for (const s of m.series) {
    for (let i = 0; i < n; i++) {
      if (!absent[i]) continue;
      const t = m.evalTimes[i];
      const hi = lastAtOrBefore(s.times, t);
      if (hi >= 0 && s.times[hi] > t - m.windowMs) absent[i] = 0;
    }
  }
  return absent;
}
