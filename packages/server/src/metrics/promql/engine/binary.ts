// Binary operators: arithmetic, comparisons (filtering or `bool`), set operators, and vector
// matching with on/ignoring and group_left/group_right, as Prometheus's VectorBinop does it: per step,
// the "one" side's series are indexed by their matching signature.
import type { BinaryExpr, VectorMatching } from './ast';
import { CHECK_EVERY, checkAbort, type EvalContext } from './context';
import { PromQLError } from './errors';
import type { Labels } from './source';
import { isComparison, isSetOp } from './typecheck';
import {
  NAME,
  SeriesBuilder,
  dropName,
  duplicateLabelsetError,
  formatLabels,
  labelsKey,
  mergeSameLabels,
  newSeries,
  type StepSeries,
  type Value,
  type VectorValue,
} from './values';

/** The value of `l op r`, and whether a comparison keeps it. */
function apply(op: string, l: number, r: number): [number, boolean] {
  switch (op) {
    case '+':
      return [l + r, true];
    case '-':
      return [l - r, true];
    case '*':
      return [l * r, true];
    case '/':
      return [l / r, true];
    case '%':
      return [l % r, true];
    case '^':
      return [Math.pow(l, r), true];
    case 'atan2':
      return [Math.atan2(l, r), true];
    case '==':
      return [l, l === r];
    case '!=':
      return [l, l !== r];
    case '>':
      return [l, l > r];
    case '<':
      return [l, l < r];
    case '>=':
      return [l, l >= r];
    case '<=':
      return [l, l <= r];
  }
  throw new PromQLError(
    'execution',
    `operator ${JSON.stringify(op)} not allowed for operations between vectors and scalars`,
  );
}

export function evalBinary(e: BinaryExpr, lhs: Value, rhs: Value, ctx: EvalContext): Value {
  if (lhs.type === 'scalar' && rhs.type === 'scalar') {
    const out = new Float64Array(lhs.values.length);
    for (let i = 0; i < out.length; i++) {
      const [v, keep] = apply(e.op, lhs.values[i], rhs.values[i]);
      out[i] = isComparison(e.op) ? (keep ? 1 : 0) : v;
    }
    return { type: 'scalar', values: out };
  }
  if (lhs.type === 'vector' && rhs.type === 'vector') {
    if (isSetOp(e.op)) return setOp(e, lhs, rhs);
    return vectorBinop(e, lhs, rhs, ctx);
  }
  if (lhs.type === 'vector' && rhs.type === 'scalar') return vectorScalar(e, lhs, rhs.values, false);
  if (lhs.type === 'scalar' && rhs.type === 'vector') return vectorScalar(e, rhs, lhs.values, true);
  throw new PromQLError('execution', 'binary expression must contain only scalar and instant vector types');
}

function dropsName(e: BinaryExpr): boolean {
  return !isComparison(e.op) || e.returnBool;
}

function vectorScalar(e: BinaryExpr, vec: VectorValue, scalar: Float64Array, scalarLeft: boolean): VectorValue {
  const comparison = isComparison(e.op);
  const series: StepSeries[] = [];
  for (const s of vec.series) {
    const out = newSeries(dropsName(e) ? dropName(s.labels) : s.labels, s.values.length);
    let any = false;
    for (let i = 0; i < s.values.length; i++) {
      if (!s.has[i]) continue;
      const [l, r] = scalarLeft ? [scalar[i], s.values[i]] : [s.values[i], scalar[i]];
      const [v, keep] = apply(e.op, l, r);
      if (comparison && e.returnBool) out.values[i] = keep ? 1 : 0;
      else if (!keep) continue;
      // A comparison always keeps the vector's value, even when the scalar is on the left.
      else out.values[i] = comparison ? s.values[i] : v;
      out.has[i] = 1;
      any = true;
    }
    if (any) series.push(out);
  }
  return { type: 'vector', series: mergeSameLabels(series) };
}

/** The matching signature: the values of the `on` labels, or of all labels but the ignored ones and __name__. */
function signature(labels: Labels, m: VectorMatching): string {
  if (m.on) return m.labels.map((l) => `${l}\xff${labels[l] ?? ''}`).join('\xfe');
  const ignored = new Set([...m.labels, NAME]);
  const kept: Labels = {};
  for (const [k, v] of Object.entries(labels)) if (!ignored.has(k)) kept[k] = v;
  return labelsKey(kept);
}

function matchGroup(labels: Labels, m: VectorMatching): string {
  const out: Labels = {};
  if (m.on) for (const l of m.labels) out[l] = labels[l] ?? '';
  else {
    const ignored = new Set([...m.labels, NAME]);
    for (const [k, v] of Object.entries(labels)) if (!ignored.has(k)) out[k] = v;
  }
  return formatLabels(out);
}

function resultLabels(many: Labels, one: Labels, e: BinaryExpr, m: VectorMatching): Labels {
  let out: Labels = dropsName(e) ? dropName(many) : { ...many };
  if (m.card === 'one-to-one') {
    if (m.on) {
      const kept: Labels = {};
      for (const l of m.labels) if (l in out) kept[l] = out[l];
      out = kept;
    } else {
      out = { ...out };
      for (const l of m.labels) delete out[l];
    }
  }
  if (m.include.length > 0) {
    out = { ...out };
    for (const l of m.include) {
      if (one[l]) out[l] = one[l];
      else delete out[l];
    }
  }
  return out;
}

function vectorBinop(e: BinaryExpr, lhs: VectorValue, rhs: VectorValue, ctx: EvalContext): VectorValue {
  const m = e.matching!;
  const n = lhs.series[0]?.values.length ?? rhs.series[0]?.values.length ?? 0;
  // The code below always treats the right side as the "one" side; group_right swaps the sides.
  const swap = m.card === 'one-to-many';
  const manySide = swap ? rhs.series : lhs.series;
  const oneSide = swap ? lhs.series : rhs.series;
  const manySigs = manySide.map((s) => signature(s.labels, m));
  const oneSigs = oneSide.map((s) => signature(s.labels, m));
  const out = new SeriesBuilder(n);
  const comparison = isComparison(e.op);
  const resultCache = new Map<number, { labels: Labels; key: string }>();
  for (let i = 0; i < n; i++) {
    if (i % CHECK_EVERY === 0) checkAbort(ctx);
    const bySig = new Map<string, number>();
    oneSide.forEach((s, j) => {
      if (!s.has[i]) return;
      const prev = bySig.get(oneSigs[j]);
      if (prev !== undefined) {
        const side = swap ? 'left' : 'right';
        throw new PromQLError(
          'execution',
          `found duplicate series for the match group ${matchGroup(s.labels, m)} on the ${side} hand-side of the operation: ` +
            `[${formatLabels(oneSide[prev].labels)}, ${formatLabels(s.labels)}];` +
            'many-to-many matching not allowed: matching labels must be unique on one side',
        );
      }
      bySig.set(oneSigs[j], j);
    });
    const matched = new Set<string>();
    manySide.forEach((s, j) => {
      if (!s.has[i]) return;
      const sig = manySigs[j];
      const k = bySig.get(sig);
      if (k === undefined) return;
      if (m.card === 'one-to-one') {
        if (matched.has(sig)) {
          throw new PromQLError(
            'execution',
            'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
          );
        }
        matched.add(sig);
      }
      const one = oneSide[k];
      const [l, r] = swap ? [one.values[i], s.values[i]] : [s.values[i], one.values[i]];
      const [v, keep] = apply(e.op, l, r);
      let value = v;
      if (comparison && e.returnBool) value = keep ? 1 : 0;
      else if (!keep) return;
      // The result's labels depend only on the pair of series: computed once per pair.
      const pair = j * oneSide.length + k;
      let result = resultCache.get(pair);
      if (!result) {
        const labels = resultLabels(s.labels, one.labels, e, m);
        resultCache.set(pair, (result = { labels, key: labelsKey(labels) }));
      }
      if (!out.set(result.labels, i, value, result.key)) {
        if (m.card === 'one-to-one') throw duplicateLabelsetError();
        throw new PromQLError('execution', 'multiple matches for labels: grouping labels must ensure unique matches');
      }
    });
  }
  return { type: 'vector', series: out.series() };
}

function setOp(e: BinaryExpr, lhs: VectorValue, rhs: VectorValue): VectorValue {
  const m = e.matching!;
  const n = lhs.series[0]?.values.length ?? rhs.series[0]?.values.length ?? 0;
  const lSigs = lhs.series.map((s) => signature(s.labels, m));
  const rSigs = rhs.series.map((s) => signature(s.labels, m));
  const sigsAt = (series: StepSeries[], sigs: string[], i: number): Set<string> => {
    const set = new Set<string>();
    series.forEach((s, j) => s.has[i] && set.add(sigs[j]));
    return set;
  };
  const keepL = lhs.series.map((s) => newSeries(s.labels, n));
  const keepR = rhs.series.map((s) => newSeries(s.labels, n));
  for (let i = 0; i < n; i++) {
    const rightSigs = e.op === 'or' ? undefined : sigsAt(rhs.series, rSigs, i);
    const leftSigs = e.op === 'or' ? sigsAt(lhs.series, lSigs, i) : undefined;
    lhs.series.forEach((s, j) => {
      if (!s.has[i]) return;
      const inRight = rightSigs?.has(lSigs[j]);
      if (e.op === 'or' || (e.op === 'and' && inRight) || (e.op === 'unless' && !inRight)) {
        keepL[j].has[i] = 1;
        keepL[j].values[i] = s.values[i];
      }
    });
    if (e.op === 'or') {
      rhs.series.forEach((s, j) => {
        if (!s.has[i] || leftSigs!.has(rSigs[j])) return;
        keepR[j].has[i] = 1;
        keepR[j].values[i] = s.values[i];
      });
    }
  }
  const series = [...keepL, ...keepR].filter((s) => s.has.some((h) => h === 1));
  return { type: 'vector', series: mergeSameLabels(series) };
}
