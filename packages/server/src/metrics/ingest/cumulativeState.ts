/**
 * Cumulative -> delta conversion state (reference ingest §5.2), keyed by (project, metric,
 * series hash, start time) in a bounded LRU map. Rules:
 * - a point older than (or as old as) the stored one is dropped and the state kept;
 * - the first point of a key is dropped, unless its start time is after this process started:
 *   then nothing can have been missed and the point is its own delta (the OpenTelemetry
 *   Collector's `initial_value: auto`). A reset gives a new start time, so a new key, so the first
 *   point after a reset counts in full;
 * - a number delta below zero is stored as 0 (reference rule: the point is kept, its sum is 0);
 * - histogram deltas follow `diff`, which may refuse a point (bucket layout changed, count fell).
 * Points are taken in request order (the reference walked batches backwards, dropping the older
 * of two points of one series in a batch).
 *
 * A request's steps move the state before its rows are committed (the rows carry the deltas), so
 * a request that is refused or fails must take its steps back, or the client's retry of the same
 * body would be dropped as not newer (or, for a delta up-down counter, counted twice): the steps
 * record the entries they replace in a `StateJournal`, and `restore` puts them back. While a
 * request's commit is pending its series are locked (`lockSeries`): a later request of the same
 * series waits for it to settle before running its steps, so it never computes a delta against a
 * point that is then taken back.
 */
export class CumulativeState {
  private readonly map = new Map<string, Entry>();
  /** Series (step keys) whose request has run its steps and waits for its commit. */
  private readonly locked = new Map<string, Promise<void>>();

  constructor(
    private readonly capacity: number,
    /** Process start in unix ns: series that started later are known from their first point. */
    readonly startedAtNs: bigint,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Returns the delta, or null when the point must be dropped. */
  step<P, D>(
    key: string,
    startNs: bigint,
    timeNs: bigint,
    point: P,
    diff: (prev: P | null, cur: P) => D | null,
    journal?: StateJournal,
  ): D | null {
    const fullKey = `${key}\u0000${startNs}`;
    const prev = this.map.get(fullKey);
    if (prev && timeNs <= prev.timeNs) return null;
    this.put(fullKey, { timeNs, point }, prev, journal);
    if (!prev) return startNs > 0n && startNs >= this.startedAtNs ? diff(null, point) : null;
    return diff(prev.point as P, point);
  }

  /**
   * Delta up-down counters report changes; the stored value of an additive metric is its level,
   * so deltas are added up per series (the reference stored each delta as if it were the level).
   */
  accumulate(key: string, delta: number, journal?: StateJournal): number {
    const fullKey = `${key}\u0000level`;
    const prev = this.map.get(fullKey);
    const level = ((prev?.point as number | undefined) ?? 0) + delta;
    this.put(fullKey, { timeNs: 0n, point: level }, prev, journal);
    return level;
  }

  /** Puts back the entries a request's steps replaced (its commit was refused or failed). */
  restore(journal: StateJournal): void {
    for (const [fullKey, prev] of journal) {
      if (prev) this.put(fullKey, prev, undefined);
      else this.map.delete(fullKey);
    }
  }

  /**
   * Waits until none of `keys` (step keys) is locked, then locks them all; the returned function
   * unlocks them. Call it before running a request's steps and unlock once its commit has settled
   * (and a failed one's journal is restored). Nothing is held while waiting, so requests cannot
   * deadlock; series that no pending request holds pass at once.
   */
  async lockSeries(keys: ReadonlySet<string>): Promise<() => void> {
    for (;;) {
      const held = new Set<Promise<void>>();
      for (const k of keys) {
        const p = this.locked.get(k);
        if (p) held.add(p);
      }
      if (held.size === 0) break;
      await Promise.all(held);
    }
    let unlock!: () => void;
    const p = new Promise<void>((r) => (unlock = r));
    for (const k of keys) this.locked.set(k, p);
    return () => {
      for (const k of keys) if (this.locked.get(k) === p) this.locked.delete(k);
      unlock();
    };
  }

  private put(fullKey: string, entry: Entry, prev: Entry | undefined, journal?: StateJournal): void {
    if (journal && !journal.has(fullKey)) journal.set(fullKey, prev);
    this.map.delete(fullKey); // re-insert: Map order is the LRU order
    this.map.set(fullKey, entry);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

interface Entry {
  timeNs: bigint;
  point: unknown;
}

/** The entries (undefined: none) that a request's steps replaced, by full key, for `restore`. */
export type StateJournal = Map<string, Entry | undefined>;

export const numberDiff = (prev: number | null, cur: number): number => {
  if (prev === null) return cur;
  const d = cur - prev;
  return d > 0 ? d : 0;
};

export interface CumHistogram {
  count: number;
  sum: number;
  /** Explicit-bucket counts by bucket position, or exponential counts by absolute index. */
  buckets: number[] | Map<number, number>;
  negative?: Map<number, number>;
  scale?: number;
  zeroCount?: number;
  bounds?: readonly number[];
  /** The exported min/max of the point (over its whole window; not differenced). */
  min?: number;
  max?: number;
}

export const histogramDiff = (prev: CumHistogram | null, cur: CumHistogram): CumHistogram | null => {
  if (prev === null) return cur;
  if (cur.count < prev.count) return null;
  if (Array.isArray(cur.buckets)) {
    const pb = prev.buckets;
    if (!Array.isArray(pb) || pb.length !== cur.buckets.length || !sameBounds(prev.bounds, cur.bounds)) return null;
    return {
      ...cur,
      count: cur.count - prev.count,
      sum: cur.sum - prev.sum,
      buckets: cur.buckets.map((c, i) => Math.max(0, c - pb[i])),
    };
  }
  if (prev.scale !== cur.scale || Array.isArray(prev.buckets)) return null;
  return {
    ...cur,
    count: cur.count - prev.count,
    sum: cur.sum - prev.sum,
    zeroCount: Math.max(0, (cur.zeroCount ?? 0) - (prev.zeroCount ?? 0)),
    buckets: mapDiff(prev.buckets, cur.buckets),
    negative: mapDiff(prev.negative ?? new Map<number, number>(), cur.negative ?? new Map<number, number>()),
  };
};

function mapDiff(prev: Map<number, number>, cur: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [i, c] of cur) {
    const d = c - (prev.get(i) ?? 0);
    if (d > 0) out.set(i, d);
  }
  return out;
}

function sameBounds(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
