import type { Name } from '@lantern/shared';

/**
 * Time buckets of the series answers (timeseries, percentiles, group-stats; reference query §5.3).
 * A bucket without rows is 0 for counts, rates and sums, which are 0 when nothing happened, and
 * null for everything else (durations, percentiles, averages, error rates), which is unknown
 * then: a gap in a chart, left out of an average, never an invented 0.
 */

export type Row = Record<string, unknown>;
export type BucketValue = number | null;

/** A number from the engine (numbers, 64-bit integers as strings); null for NULL, NaN and ±Inf. */
export function nullableNum(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Whether an aggregate is 0 over no rows: counts, rates per minute, error counts, sums, uniq. */
export function zeroWhenEmpty(n: Name): boolean {
  switch (n.func) {
    case null:
      return n.attr === '.count' || n.attr === '.count_per_min' || n.attr === '.error_count';
    case 'count':
    case 'sum':
    case 'uniq':
      return true;
    case 'per_min':
      // A rate of counts or sums: `per_min(count())`, `per_min(.error_count)`, `per_min(x)`.
      return n.inner ? zeroWhenEmpty(n.inner) : true;
    default:
      return false;
  }
}

export const isoTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The buckets of [gte, lt) in `bucketMs` steps; rows carry their bucket start `t` in Unix seconds. */
export function bucketGrid(gte: Date, lt: Date, bucketMs: number) {
  const start = gte.getTime();
  const points = Math.max(0, Math.floor((lt.getTime() - start) / bucketMs));
  /** The row's bucket; a bucket starting before `gte` (an unaligned range) is the first. */
  const indexOf = (r: Row) => Math.max(0, Math.trunc(((nullableNum(r.t) ?? 0) * 1000 - start) / bucketMs));
  /**
   * One value per bucket: `value` of the bucket's row, `empty` where no row is. Two rows in one
   * bucket (the partial bucket before an unaligned `gte` and the first) add up.
   */
  function fill(rows: readonly Row[], value: (r: Row) => number, empty: 0): number[];
  function fill(rows: readonly Row[], value: (r: Row) => BucketValue, empty: 0 | null): BucketValue[];
  function fill(rows: readonly Row[], value: (r: Row) => BucketValue, empty: 0 | null): BucketValue[] {
    const out = new Array<BucketValue>(points).fill(empty);
    for (const r of rows) {
      const i = indexOf(r);
      const v = value(r);
      if (i >= points || v === null) continue;
      const prev = out[i];
      out[i] = prev === null ? v : prev + v;
    }
    return out;
  }
  return {
    points,
    time: (): string[] => Array.from({ length: points }, (_, i) => isoTime(start + i * bucketMs)),
    fill,
  };
}
