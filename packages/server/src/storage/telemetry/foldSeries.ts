/** A row the fold holds: one series and minute (datapointFold.ts). */
export interface FoldRow {
  time: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  gauge: number;
  /** Bucket value -> count; null: no buckets. */
  hist: Map<number, number> | null;
  tail: string;
  /** The tick (DatapointFold.add's) of the row's last line. */
  tick: number;
  /** The journal segment of its first line (all its lines are in that segment or later ones). */
  seg: number;
}

/**
 * A series as the fold keys it: a row's head is `pre` + its minute (Unix seconds) + `post`. Made
 * once per series by who gives rows as columns (and kept: its rows are found through it).
 */
export class FoldSeries {
  /** Its number in the journal's records (datapointRecords.ts), and the segment it was last defined in there. */
  readonly id = nextSeriesId++ >>> 0;
  journalSeg = -1;
  readonly preBytes: Uint8Array;
  readonly tailBytes: Uint8Array;
  /** Its open rows (while the fold holds it; else empty). */
  rows: FoldRow[] = [];
  /** The row the last sample went to (one of `rows`, or null): most samples go to it, found without the array. */
  last: FoldRow | null = null;
  /** The latest minute of its rows (-Infinity: none): a sample past it starts a row without a search (samples come in time order). */
  newest = -Infinity;
  /** Its RowBinary parts (datapointRowBinary.ts; made at its first written row): the hash's at `binPost`, the arrays' at `binTail`. */
  bin: Uint8Array | null = null;
  binPost = 0;
  binTail = 0;
  /** `pre` + `post` while the fold holds it; null otherwise. */
  key: string | null = null;

  /**
   * `pre`: `project \t metric \t`; `post`: `\t attrs_hash \t instrument \t` (ASCII); `tail`:
   * `string_keys \t string_values` (without the newline). The bytes: `pre` and `tail` as UTF-8, when the caller has them.
   */
  constructor(
    readonly pre: string,
    readonly post: string,
    readonly tail: string,
    preBytes?: Uint8Array,
    tailBytes?: Uint8Array,
  ) {
    this.preBytes = preBytes ?? Buffer.from(pre);
    this.tailBytes = tailBytes ?? Buffer.from(tail);
  }
}

let nextSeriesId = 0;
