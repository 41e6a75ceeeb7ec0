// The engine's in-memory values. An expression is evaluated for every step of a time grid at once
// (as Prometheus's range evaluation does): a scalar is one number per step, an instant vector is a set
// of series with a value (or none) per step, a range vector is raw points plus each step's window.
import { PromQLError } from './errors';
import type { Labels } from './source';

export interface Grid {
  /** Evaluation times (Unix ms), ascending. */
  times: Float64Array;
}

export interface StepSeries {
  labels: Labels;
  values: Float64Array;
  /** 1 where the series has a value at that step. */
  has: Uint8Array;
}

/** Points of one series; a point's time is the END of its minute (or a subquery's step time). */
export interface PointSeries {
  labels: Labels;
  times: Float64Array;
  /** Values as a sample would show them: cumulative totals for counters. */
  values: Float64Array;
  /** Counters only: the per-minute increases the values are summed from. */
  deltas: Float64Array | undefined;
  /** How far apart consecutive points are meant to be (60 s stored, the step for subqueries). */
  resolutionMs: number;
}

export type ScalarValue = { type: 'scalar'; values: Float64Array };
export type VectorValue = { type: 'vector'; series: StepSeries[] };
export type StringValue = { type: 'string'; value: string };
/** A range vector: per step, the window (evalTimes[i] - rangeMs, evalTimes[i]] of each series' points. */
export type MatrixValue = {
  type: 'matrix';
  series: PointSeries[];
  evalTimes: Float64Array;
  /** The range as written. */
  rangeMs: number;
  /** The window actually used: stored minutes widen a range below one minute to one minute. */
  windowMs: number;
};
export type Value = ScalarValue | VectorValue | StringValue | MatrixValue;

export const NAME = '__name__';

export function newSeries(labels: Labels, n: number): StepSeries {
  return { labels, values: new Float64Array(n), has: new Uint8Array(n) };
}

/** A stable key for a label set (sorted names). */
export function labelsKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}\xff${labels[k]}`)
    .join('\xfe');
}

export function dropName(labels: Labels): Labels {
  if (!(NAME in labels)) return labels;
  const out = { ...labels };
  delete out[NAME];
  return out;
}

/** Labels compared as Prometheus sorts series: by sorted names, then values. */
export function compareLabels(a: Labels, b: Labels): number {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    const va = a[ka[i]];
    const vb = b[kb[i]];
    if (va !== vb) return va < vb ? -1 : 1;
  }
  return ka.length - kb.length;
}

/**
 * Collects output series keyed by label set across steps; two values for one label set at one step
 * is the error Prometheus reports as "vector cannot contain metrics with the same labelset".
 */
export class SeriesBuilder {
  private readonly byKey = new Map<string, StepSeries>();
  constructor(private readonly n: number) {}

  /** Returns false when the label set already has a value at this step. */
  set(labels: Labels, step: number, value: number, key = labelsKey(labels)): boolean {
    let s = this.byKey.get(key);
    if (!s) {
      s = newSeries(labels, this.n);
      this.byKey.set(key, s);
    }
    if (s.has[step]) return false;
    s.has[step] = 1;
    s.values[step] = value;
    return true;
  }
  series(): StepSeries[] {
    return [...this.byKey.values()];
  }
}

/** Go's strconv.FormatFloat(f, 'f', -1, 64): shortest round-trip digits, never an exponent. */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Object.is(v, -0)) return '-0';
  const s = String(v);
  if (!/e/.test(s)) return s;
  const [mant, expText] = s.split('e');
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const pointAt =
    (mant.replace('-', '').indexOf('.') === -1 ? mant.replace('-', '').length : mant.replace('-', '').indexOf('.')) +
    exp;
  let out: string;
  if (pointAt <= 0) out = '0.' + '0'.repeat(-pointAt) + digits;
  else if (pointAt >= digits.length) out = digits + '0'.repeat(pointAt - digits.length);
  else out = digits.slice(0, pointAt) + '.' + digits.slice(pointAt);
  return (neg ? '-' : '') + out;
}

/** Labels as Prometheus prints them in messages: {a="b", c="d"}. */
export function formatLabels(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return '{' + names.map((k) => `${k}=${JSON.stringify(labels[k])}`).join(', ') + '}';
}

/**
 * Merges series whose label sets became equal (after a function dropped __name__, say); a label set
 * with two values at one step is Prometheus's "vector cannot contain metrics with the same labelset".
 */
export function mergeSameLabels(series: StepSeries[]): StepSeries[] {
  const byKey = new Map<string, StepSeries>();
  for (const s of series) {
    const key = labelsKey(s.labels);
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, s);
      continue;
    }
    const merged = newSeries(prev.labels, prev.values.length);
    for (let i = 0; i < merged.values.length; i++) {
      if (prev.has[i] && s.has[i]) throw duplicateLabelsetError();
      if (prev.has[i] || s.has[i]) {
        merged.has[i] = 1;
        merged.values[i] = prev.has[i] ? prev.values[i] : s.values[i];
      }
    }
    byKey.set(key, merged);
  }
  return [...byKey.values()];
}

export function duplicateLabelsetError(): PromQLError {
  return new PromQLError('execution', 'vector cannot contain metrics with the same labelset');
}
