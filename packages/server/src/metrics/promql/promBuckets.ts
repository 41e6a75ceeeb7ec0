/**
 * Classic `_bucket{le}` series from Lantern's stored histograms. A stored histogram is a map of
 * (representative value -> count) per minute, one representative inside each non-empty bucket
 * (ingest/histogram.ts: the midpoint of the part of the bucket the exported min/max allow), not the
 * bucket bounds. The buckets PromQL sees take those representatives as bounds: for the ordered
 * representatives r1 < r2 < ... of the series read together, bucket `le="ri"` counts every
 * observation whose representative is <= ri, and `le="+Inf"` all of them. So the buckets are
 * cumulative and consistent across the series of a query (every series gets every bound), and
 * `histogram_quantile` interpolates between neighbouring representatives: its answer is within
 * about one of the original buckets of the true quantile, as Lantern's own percentiles are.
 */

/** A bound as Prometheus formats it (`+Inf`, `0.25`, `1e+06`). */
export function formatLe(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/**
 * The union of the representatives of several maps, ascending, without repeats.
 */
export function boundsOf(maps: Iterable<readonly number[]>): number[] {
  const set = new Set<number>();
  for (const reps of maps) for (const r of reps) set.add(r);
  return [...set].sort((a, b) => a - b);
}

/**
 * Per bound (and a last one for +Inf), per minute: the count of observations at or below it.
 * `reps`/`counts` are the minute maps of one series (or group); `bounds` ascending.
 */
export function cumulativeBuckets(
  minutes: readonly { reps: readonly number[]; counts: readonly number[] }[],
  bounds: readonly number[],
): Float64Array[] {
  const out = Array.from({ length: bounds.length + 1 }, () => new Float64Array(minutes.length));
  minutes.forEach((m, i) => {
    // The map's representatives come sorted from storage (sumMap sorts its keys).
    const order = m.reps.map((_, k) => k).sort((a, b) => m.reps[a] - m.reps[b]);
    let acc = 0;
    let k = 0;
    for (let b = 0; b < bounds.length; b++) {
      while (k < order.length && m.reps[order[k]] <= bounds[b]) acc += m.counts[order[k++]];
      out[b][i] = acc;
    }
    while (k < order.length) acc += m.counts[order[k++]];
    out[bounds.length][i] = acc;
  });
  return out;
}
