/**
 * Histogram datapoints -> the stored (representative value -> count) map (reference ingest §5.1).
 * Each non-empty bucket is represented by one value inside it, so a quantile read from storage
 * lands in the right bucket (the tolerance is one bucket width). The representative is the
 * midpoint of the bucket's part that the datapoint's values can occupy: the bucket's bounds
 * narrowed by the exported min and max when known. So the open first and last buckets use min/max
 * (else their finite bound), and a bucket wider than the values (all values <= 0.35 s in a 0-5
 * bucket of buckets made for milliseconds) is represented inside [min, max], not at 2.5.
 * - explicit buckets: bucket i covers (bounds[i-1], bounds[i]];
 * - exponential buckets: base = 2^(2^-scale) as the OTel spec says (the reference used 2^(2^scale),
 *   right only at scale 0); bucket i covers (base^i, base^(i+1)], negative ones mirrored, zero at 0.
 */
export interface BucketMap {
  values: number[];
  counts: number[];
}

export const EMPTY_BUCKETS: BucketMap = { values: [], counts: [] };

/** One bucket: the values it covers (lo may be -Infinity, hi +Infinity) and how many fell in it. */
export interface Bucket {
  lo: number;
  hi: number;
  count: number;
}

/** Explicit-bucket counts as buckets in ascending order; null when the lengths do not match. */
export function explicitBucketList(bounds: readonly number[], counts: readonly number[]): Bucket[] | null {
  if (counts.length !== bounds.length + 1) return null;
  return counts.map((count, i) => ({
    lo: i === 0 ? -Infinity : bounds[i - 1],
    hi: i === bounds.length ? Infinity : bounds[i],
    count,
  }));
}

export interface ExpBuckets {
  scale: number;
  zeroCount: number;
  positive: { offset: number; counts: readonly number[] };
  negative: { offset: number; counts: readonly number[] };
}

/** Exponential-bucket counts as buckets in ascending order. */
export function exponentialBucketList(h: ExpBuckets): Bucket[] {
  const base = Math.pow(2, Math.pow(2, -h.scale));
  const side = (b: ExpBuckets['positive'], sign: 1 | -1): Bucket[] =>
    b.counts.map((count, k) => {
      const a = sign * Math.pow(base, b.offset + k);
      const z = sign * Math.pow(base, b.offset + k + 1);
      return { lo: Math.min(a, z), hi: Math.max(a, z), count };
    });
  return [...side(h.negative, -1).reverse(), { lo: 0, hi: 0, count: h.zeroCount }, ...side(h.positive, 1)];
}

/** The representative of a bucket: the midpoint of its bounds narrowed to [min, max]. */
function representative(b: Bucket, min: number | undefined, max: number | undefined): number {
  let lo = min !== undefined ? Math.max(b.lo, min) : b.lo;
  let hi = max !== undefined ? Math.min(b.hi, max) : b.hi;
  if (lo > hi) [lo, hi] = [b.lo, b.hi]; // min/max that do not meet this bucket: its own bounds
  const finiteLo = Number.isFinite(lo);
  const finiteHi = Number.isFinite(hi);
  if (finiteLo && finiteHi) return (lo + hi) / 2;
  return finiteLo ? lo : finiteHi ? hi : 0;
}

/** The non-empty buckets as the stored map, their representatives narrowed by min/max. */
export function bucketMap(buckets: readonly Bucket[], min?: number, max?: number): BucketMap {
  const acc = new Map<number, number>();
  for (const b of buckets) {
    if (!(b.count > 0)) continue;
    const v = representative(b, min, max);
    acc.set(v, (acc.get(v) ?? 0) + b.count);
  }
  return sorted(acc);
}

export function explicitBuckets(
  bounds: readonly number[],
  counts: readonly number[],
  min?: number,
  max?: number,
): BucketMap {
  const list = explicitBucketList(bounds, counts);
  return list ? bucketMap(list, min, max) : EMPTY_BUCKETS;
}

export function exponentialBuckets(h: ExpBuckets, min?: number, max?: number): BucketMap {
  return bucketMap(exponentialBucketList(h), min, max);
}

/**
 * The tightest [min, max] known for the values in the non-empty buckets, given a min and max that
 * hold for them (a delta point's own, or a cumulative point's, which cover every earlier window
 * too): each clamped to the outer bounds of the non-empty buckets. Without them, the
 * representatives of the lowest and highest non-empty buckets. Null when every bucket is empty.
 */
export function valueRange(
  buckets: readonly Bucket[],
  min?: number,
  max?: number,
): { min: number; max: number } | null {
  const used = buckets.filter((b) => b.count > 0);
  if (used.length === 0) return null;
  const first = used[0];
  const last = used[used.length - 1];
  const lo = min !== undefined ? Math.max(min, first.lo) : representative(first, undefined, undefined);
  const hi = max !== undefined ? Math.min(max, last.hi) : representative(last, undefined, undefined);
  if (lo <= hi) return { min: lo, max: hi };
  return { min: representative(first, min, max), max: representative(last, min, max) };
}

function sorted(acc: Map<number, number>): BucketMap {
  const values = [...acc.keys()].sort((a, b) => a - b);
  return { values, counts: values.map((v) => acc.get(v)!) };
}
