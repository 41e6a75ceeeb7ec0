/**
 * Histogram datapoints -> the stored (representative value -> count) map (reference ingest §5.1).
 * Each non-empty bucket is represented by one value inside it, so a quantile read from storage
 * lands in the right bucket (the tolerance is one bucket width):
 * - explicit buckets: the midpoint; the open first and last buckets use the datapoint's min/max
 *   when present (else the finite bound);
 * - exponential buckets: base = 2^(2^-scale) as the OTel spec says (the reference used 2^(2^scale),
 *   right only at scale 0); bucket i covers (base^i, base^(i+1)], represented by its midpoint.
 */
export interface BucketMap {
  values: number[];
  counts: number[];
}

export const EMPTY_BUCKETS: BucketMap = { values: [], counts: [] };

export function explicitBuckets(
  bounds: readonly number[],
  counts: readonly number[],
  min?: number,
  max?: number,
): BucketMap {
  if (counts.length !== bounds.length + 1) return EMPTY_BUCKETS;
  const acc = new Map<number, number>();
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (!(c > 0)) continue;
    let v: number;
    if (bounds.length === 0) v = min !== undefined && max !== undefined ? (min + max) / 2 : 0;
    else if (i === 0) v = min !== undefined && min < bounds[0] ? (min + bounds[0]) / 2 : bounds[0];
    else if (i === bounds.length)
      v = max !== undefined && max > bounds[i - 1] ? (bounds[i - 1] + max) / 2 : bounds[i - 1];
    else v = (bounds[i - 1] + bounds[i]) / 2;
    acc.set(v, (acc.get(v) ?? 0) + c);
  }
  return sorted(acc);
}

export interface ExpBuckets {
  scale: number;
  zeroCount: number;
  positive: { offset: number; counts: readonly number[] };
  negative: { offset: number; counts: readonly number[] };
}

export function exponentialBuckets(h: ExpBuckets): BucketMap {
  const base = Math.pow(2, Math.pow(2, -h.scale));
  const acc = new Map<number, number>();
  if (h.zeroCount > 0) acc.set(0, h.zeroCount);
  const walk = (b: ExpBuckets['positive'], sign: 1 | -1) => {
    for (let k = 0; k < b.counts.length; k++) {
      const c = b.counts[k];
      if (!(c > 0)) continue;
      const idx = b.offset + k;
      const v = sign * ((Math.pow(base, idx) + Math.pow(base, idx + 1)) / 2);
      acc.set(v, (acc.get(v) ?? 0) + c);
    }
  };
  walk(h.positive, 1);
  walk(h.negative, -1);
  return sorted(acc);
}

function sorted(acc: Map<number, number>): BucketMap {
  const values = [...acc.keys()].sort((a, b) => a - b);
  return { values, counts: values.map((v) => acc.get(v)!) };
}

/** min/max approximated from the representatives when the datapoint carries none. */
export function bucketRange(b: BucketMap): { min: number; max: number } | null {
  if (b.values.length === 0) return null;
  return { min: b.values[0], max: b.values[b.values.length - 1] };
}
