// Quantiles as Prometheus computes them: φ-quantile of a sample set with linear interpolation
// between closest ranks (aggregations, quantile_over_time), and the classic-histogram bucket
// quantile of histogram_quantile (quantile.go: coalesced buckets, forced monotonicity).

/** The φ-quantile of values (sorts them in place). */
export function quantile(q: number, values: number[]): number {
  if (values.length === 0 || Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  values.sort((a, b) => a - b);
  const n = values.length;
  const rank = q * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return values[lower] * (1 - weight) + values[upper] * weight;
}

export interface Bucket {
  upperBound: number;
  count: number;
}

const SMALL_DELTA_TOLERANCE = 1e-12;

function almostEqual(a: number, b: number, eps: number): boolean {
  if (a === b) return true;
  const sum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || sum < Number.MIN_VALUE) return diff < eps * Number.MIN_VALUE;
  return diff / Math.min(sum, Number.MAX_VALUE) < eps;
}

/** Buckets sorted by bound, those with the same bound added up; undefined without a +Inf bucket. */
function coalesced(input: Bucket[]): Bucket[] | undefined {
  const sorted = [...input].sort((a, b) => a.upperBound - b.upperBound);
  if (sorted.length === 0 || sorted[sorted.length - 1].upperBound !== Infinity) return undefined;
  const buckets: Bucket[] = [];
  for (const b of sorted) {
    const last = buckets[buckets.length - 1];
    if (last && last.upperBound === b.upperBound) last.count += b.count;
    else buckets.push({ ...b });
  }
  return buckets;
}

/** The φ-quantile of classic histogram buckets (cumulative counts by upper bound `le`). */
export function bucketQuantile(q: number, input: Bucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const buckets = coalesced(input);
  if (!buckets) return NaN;
  // Counts must not fall with a higher bound (scrapes of buckets are not atomic): carry the maximum.
  let prev = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const curr = buckets[i].count;
    if (curr === prev) continue;
    if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE) || curr < prev) {
      buckets[i].count = prev;
      continue;
    }
    prev = curr;
  }
  if (buckets.length < 2) return NaN;
  const observations = buckets[buckets.length - 1].count;
  if (observations === 0) return NaN;
  let rank = q * observations;
  let b = 0;
  while (b < buckets.length - 1 && buckets[b].count < rank) b++;
  if (b === buckets.length - 1) return buckets[buckets.length - 2].upperBound;
  if (b === 0 && buckets[0].upperBound <= 0) return buckets[0].upperBound;
  let start = 0;
  let count = buckets[b].count;
  if (b > 0) {
    start = buckets[b - 1].upperBound;
    count -= buckets[b - 1].count;
    rank -= buckets[b - 1].count;
  }
  return start + (buckets[b].upperBound - start) * (rank / count);
}

/** The fraction of observations between lower and upper, interpolating linearly inside buckets. */
export function bucketFraction(lower: number, upper: number, input: Bucket[]): number {
  const buckets = coalesced(input);
  if (!buckets) return NaN;
  const count = buckets[buckets.length - 1].count;
  if (count === 0 || Number.isNaN(lower) || Number.isNaN(upper)) return NaN;
  if (lower >= upper) return 0;
  let rank = 0;
  let lowerRank: number | undefined;
  let upperRank: number | undefined;
  // The first bucket starts at 0, or at -Inf when its bound is not positive.
  let lowerBound = buckets[0].upperBound <= 0 ? -Infinity : 0;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (i > 0) lowerBound = buckets[i - 1].upperBound;
    const upperBound = b.upperBound;
    const interpolate = (v: number): number =>
      lowerBound === -Infinity ? b.count : rank + ((b.count - rank) * (v - lowerBound)) / (upperBound - lowerBound);
    if (lowerRank === undefined && lowerBound >= lower) lowerRank = rank;
    if (upperRank === undefined && lowerBound >= upper) upperRank = rank;
    if (lowerRank !== undefined && upperRank !== undefined) break;
    if (lowerRank === undefined && lowerBound < lower && upperBound > lower) lowerRank = interpolate(lower);
    if (upperRank === undefined && lowerBound < upper && upperBound > upper) upperRank = interpolate(upper);
    if (lowerRank !== undefined && upperRank !== undefined) break;
    rank = b.count;
  }
  if (lowerRank === undefined || lowerRank > count) lowerRank = count;
  if (upperRank === undefined || upperRank > count) upperRank = count;
  return (upperRank - lowerRank) / count;
}

/** The population variance (Welford's running mean, as Prometheus computes stdvar). */
export function variance(values: number[]): number {
  let mean = 0;
  let aux = 0;
  values.forEach((v, i) => {
    const delta = v - mean;
    mean += delta / (i + 1);
    aux += delta * (v - mean);
  });
  return aux / values.length;
}
