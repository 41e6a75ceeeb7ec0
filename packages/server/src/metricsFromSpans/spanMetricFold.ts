import {
  COUNT,
  MAX,
  MIN,
  STAT_FIELDS,
  SUM,
  type FoldedSpanMetrics,
  type SpanMetricFolder,
} from '../storage/telemetry/spanMetricRows';

/**
 * Datapoints of metrics from spans as they travel and wait (spanMetricPoints.ts makes them, the
 * store's writer writes them: storage/telemetry/spanMetricWriter.ts): a request's points as
 * lines, line parts and typed arrays (FoldedSpanMetrics, the format storage defines), and the fold
 * of many requests' points by series and minute.
 */

const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

/** The numbers of a datapoint line, between its head and its tail. */
function lineNumbers(count: number, sum: number, min: number, max: number, buckets: string): string {
  return `${finite(min)}\t${finite(max)}\t${finite(sum)}\t${count}\t0\t${buckets}`;
}

/** Adds `n` observations of bucket `b` to [value, count, value, count...] (few buckets: a linear scan). */
export function addBucket(b: number[], value: number, n: number): void {
  for (let i = 0; i < b.length; i += 2) {
    if (b[i] === value) {
      b[i + 1] += n;
      return;
    }
  }
  b.push(value, n);
}

/** `([values],[counts])`: a histogram column of a line. */
function bucketsText(b: readonly number[] | null): string {
  if (b === null || b.length === 0) return '([],[])';
  let vs = '';
  let cs = '';
  for (let i = 0; i < b.length; i += 2) {
    vs += (i ? ',' : '') + b[i];
    cs += (i ? ',' : '') + b[i + 1];
  }
  return `([${vs}],[${cs}])`;
}

export function packPoints(
  heads: string[],
  tails: string[],
  stats: number[],
  buckets: readonly (number[] | null)[],
): FoldedSpanMetrics {
  const n = heads.length;
  const bucketEnds = new Uint32Array(n);
  let total = 0;
  for (let p = 0; p < n; p++) bucketEnds[p] = total += (buckets[p]?.length ?? 0) / 2;
  const bucketValues = new Float64Array(total);
  const bucketCounts = new Float64Array(total);
  let lines = '';
  for (let p = 0, k = 0; p < n; p++) {
    const b = buckets[p];
    if (b !== null) for (let i = 0; i < b.length; i += 2, k++) [bucketValues[k], bucketCounts[k]] = [b[i], b[i + 1]];
    const s = p * STAT_FIELDS;
    lines +=
      heads[p] +
      lineNumbers(stats[s + COUNT], stats[s + SUM], stats[s + MIN], stats[s + MAX], bucketsText(b)) +
      tails[p];
  }
  return { heads, tails, stats: Float64Array.from(stats), bucketEnds, bucketValues, bucketCounts, lines };
}

/**
 * Points of several requests (and batches) folded together by head: the same series and minute
 * make one row. The store's batch writer keeps these between its inserts (spanMetricWriter.ts).
 */
export class SpanMetricFold implements SpanMetricFolder {
  private readonly at = new Map<string, number>();
  private heads: string[] = [];
  private tails: string[] = [];
  private stats: number[] = [];
  private buckets: (number[] | null)[] = [];

  get size(): number {
    return this.heads.length;
  }

  add(f: FoldedSpanMetrics): void {
    const { heads, stats, bucketEnds, bucketValues, bucketCounts } = f;
    for (let p = 0; p < heads.length; p++) {
      const from = p === 0 ? 0 : bucketEnds[p - 1];
      const s = p * STAT_FIELDS;
      let q = this.at.get(heads[p]);
      if (q === undefined) {
        q = this.heads.length;
        this.at.set(heads[p], q);
        this.heads.push(heads[p]);
        this.tails.push(f.tails[p]);
        for (let i = 0; i < STAT_FIELDS; i++) this.stats.push(i === COUNT || i === SUM ? 0 : stats[s + i]);
        // A histogram point has a bucket at least; a counter's min and max stay 0.
        this.buckets.push(bucketEnds[p] > from ? [] : null);
      }
      const t = q * STAT_FIELDS;
      this.stats[t + COUNT] += stats[s + COUNT];
      this.stats[t + SUM] += stats[s + SUM];
      const b = this.buckets[q];
      if (b !== null) {
        this.stats[t + MIN] = Math.min(this.stats[t + MIN], stats[s + MIN]);
        this.stats[t + MAX] = Math.max(this.stats[t + MAX], stats[s + MAX]);
        for (let k = from; k < bucketEnds[p]; k++) addBucket(b, bucketValues[k], bucketCounts[k]);
      }
    }
  }

  /** The folded points as one list (a fold's own lines; used once, the fold is left as it is). */
  points(): FoldedSpanMetrics {
    return packPoints(this.heads, this.tails, this.stats, this.buckets);
  }
}
