// histogram_quantile and histogram_fraction over classic histograms: series with an `le` label,
// grouped by their other labels, one bucket set per group per step.
import { CHECK_EVERY, checkAbort, type EvalContext } from './context';
import type { Bucket } from './quantile';
import type { Labels } from './source';
import { NAME, labelsKey, mergeSameLabels, newSeries, type StepSeries } from './values';

function parseLe(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === '+inf' || t === 'inf') return Infinity;
  if (t === '-inf') return -Infinity;
  if (t === '' || Number.isNaN(Number(t))) return undefined;
  return Number(t);
}

/** Applies `f` to each group's buckets at each step. */
export function perHistogram(
  series: StepSeries[],
  n: number,
  ctx: EvalContext,
  f: (buckets: Bucket[], step: number) => number,
): StepSeries[] {
  const groups = new Map<string, { labels: Labels; members: { s: StepSeries; le: number }[] }>();
  for (const s of series) {
    const le = parseLe(s.labels.le);
    if (le === undefined) continue;
    const labels: Labels = { ...s.labels };
    delete labels.le;
    // Grouped with the metric name (histograms of two metrics never mix), which the result drops:
    // two groups that differ only by name collide, as in Prometheus.
    const key = labelsKey(labels);
    delete labels[NAME];
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { labels, members: [] }));
    g.members.push({ s, le });
  }
  const out: StepSeries[] = [];
  let checked = 0;
  for (const g of groups.values()) {
    if (++checked % CHECK_EVERY === 0) checkAbort(ctx);
    const r = newSeries(g.labels, n);
    let any = false;
    for (let i = 0; i < n; i++) {
      const buckets: Bucket[] = [];
      for (const { s, le } of g.members) if (s.has[i]) buckets.push({ upperBound: le, count: s.values[i] });
      if (buckets.length === 0) continue;
      r.values[i] = f(buckets, i);
      r.has[i] = 1;
      any = true;
    }
    if (any) out.push(r);
  }
  return mergeSameLabels(out);
}
