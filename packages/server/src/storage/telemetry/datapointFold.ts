import { datapointValues, type DatapointLines } from './datapointStaging';

/**
 * Datapoint lines (DATAPOINT_COLUMNS, TabSeparated, as metrics ingest stages them) folded in
 * memory per (project, metric, minute, series, instrument): what `datapoint_minutes` does to the
 * rows of one key on merge and its reads to the rows of one minute (docs/decisions/metrics-ingest-fold.md).
 * min and max combine (over lines with a count, as reads take them, once there is one), sum and
 * count add, `gauge`, `string_keys` and `string_values` keep the last line's (anyLast), histogram
 * buckets add by their value (sumMap). A Prometheus target scraped every 15 s sends four samples a
 * series and minute, an OTel SDK exporting every 10 s six: the engine gets one row for them.
 *
 * A line is `head` (its first five fields and their tabs, also its key), six values and `tail`
 * (the attribute arrays and the newline); lines that start with '#' (the journal's marks) are
 * skipped.
 */
interface FoldRow {
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

/** Tabs in a line before its tail: 5 after the head's fields, 6 after the values. */
const TABS = 11;
const EMPTY_HISTOGRAM = '([],[])';
const HASH = 35; // '#'

export class MalformedDatapointLine extends Error {}

export class DatapointFold {
  private rows = new Map<string, FoldRow>();
  private readonly tabs = new Int32Array(TABS);

  /** Rows held (series x minutes). */
  get size(): number {
    return this.rows.size;
  }

  /**
   * Folds the lines of `text` (of journal segment `seg`), each marked with `tick`, but those
   * whose head `skip` tells (already written); returns how many lines it folded.
   */
  add(text: string, tick: number, seg: number, skip?: (head: string) => boolean): number {
    let start = 0;
    let lines = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start && text.charCodeAt(start) !== HASH) {
        if (this.addLine(text, start, end, tick, seg, skip)) lines++;
      }
      start = end + 1;
    }
    return lines;
  }

  private addLine(
    text: string,
    start: number,
    end: number,
    tick: number,
    seg: number,
    skip: ((head: string) => boolean) | undefined,
  ): boolean {
    const tabs = this.tabs;
    let p = start;
    for (let i = 0; i < TABS; i++) {
      p = text.indexOf('\t', p);
      if (p < 0 || p >= end)
        throw new MalformedDatapointLine(`datapoint line with ${i} fields: ${text.slice(start, end)}`);
      tabs[i] = p++;
    }
    const head = text.slice(start, tabs[4] + 1);
    if (skip?.(head)) return false;
    const num = (i: number) => Number(text.slice(tabs[i] + 1, tabs[i + 1]));
    const histText = text.slice(tabs[9] + 1, tabs[10]);
    this.merge(
      head,
      num(1),
      num(4),
      num(5),
      num(6),
      num(7),
      num(8),
      histText === EMPTY_HISTOGRAM ? null : histText,
      text.slice(tabs[10] + 1, end),
      tick,
      seg,
    );
    return true;
  }

  /** Folds rows given as columns (the same rows as their text: DatapointLines) of segment `seg`, each marked with `tick`. */
  addLines(lines: DatapointLines, tick: number, seg: number): void {
    const { heads, tails, times, values } = lines;
    for (let i = 0; i < heads.length; i++) {
      const v = 5 * i;
      this.merge(
        heads[i],
        times[i],
        values[v],
        values[v + 1],
        values[v + 2],
        values[v + 3],
        values[v + 4],
        null,
        tails[i],
        tick,
        seg,
      );
    }
  }

  private merge(
    head: string,
    time: number,
    min: number,
    max: number,
    sum: number,
    count: number,
    gauge: number,
    histText: string | null,
    tail: string,
    tick: number,
    seg: number,
  ): void {
    const row = this.rows.get(head);
    if (row === undefined) {
      this.rows.set(head, {
        time,
        min,
        max,
        sum,
        count,
        gauge,
        hist: histText === null ? null : addBuckets(new Map<number, number>(), histText),
        tail,
        tick,
        seg,
      });
      return;
    }
    // Reads take min and max over rows that hold values (`minIf(min, count > 0)`: a histogram's
    // empty export carries 0s), so the fold does too.
    if (count > 0 && row.count === 0) {
      row.min = min;
      row.max = max;
    } else if (count > 0 || row.count === 0) {
      row.min = Math.min(row.min, min);
      row.max = Math.max(row.max, max);
    }
    row.sum += sum;
    row.count += count;
    row.gauge = gauge;
    if (histText !== null) row.hist = addBuckets(row.hist ?? new Map<number, number>(), histText);
    row.tail = tail;
    row.tick = tick;
  }

  /**
   * Removes the rows `pick` chooses and returns them as lines, with the earliest one's time (Unix
   * seconds; Infinity when none) and the earliest segment of the rows taken and of those kept
   * (Infinity when none).
   */
  take(pick: (time: number, tick: number) => boolean): {
    text: string;
    rows: number;
    minTime: number;
    takenMinSeg: number;
    keptMinSeg: number;
  } {
    const lines: string[] = [];
    let minTime = Infinity;
    let takenMinSeg = Infinity;
    let keptMinSeg = Infinity;
    for (const [head, row] of this.rows) {
      if (!pick(row.time, row.tick)) {
        if (row.seg < keptMinSeg) keptMinSeg = row.seg;
        continue;
      }
      lines.push(line(head, row));
      if (row.time < minTime) minTime = row.time;
      if (row.seg < takenMinSeg) takenMinSeg = row.seg;
      this.rows.delete(head);
    }
    return { text: lines.join(''), rows: lines.length, minTime, takenMinSeg, keptMinSeg };
  }
}

function line(head: string, r: FoldRow): string {
  // Without buckets (remote write, sums, gauges): no arrays built for the empty histogram.
  if (r.hist === null)
    return `${head}${r.min}\t${r.max}\t${r.sum}\t${r.count}\t${r.gauge}\t${EMPTY_HISTOGRAM}\t${r.tail}\n`;
  const hist: [number[], number[]] = [[], []];
  for (const [v, c] of r.hist) {
    hist[0].push(v);
    hist[1].push(c);
  }
  return `${head}${datapointValues(r.min, r.max, r.sum, r.count, r.gauge, hist)}${r.tail}\n`;
}

/** Adds the buckets of a histogram field, `([v1,v2],[c1,c2])`, to `into`. */
function addBuckets(into: Map<number, number>, field: string): Map<number, number> {
  const mid = field.indexOf('],[');
  if (!field.startsWith('([') || !field.endsWith('])') || mid < 0)
    throw new MalformedDatapointLine(`histogram field ${field}`);
  const values = field.slice(2, mid).split(',');
  const counts = field.slice(mid + 3, -2).split(',');
  if (values.length !== counts.length) throw new MalformedDatapointLine(`histogram field ${field}`);
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    into.set(v, (into.get(v) ?? 0) + Number(counts[i]));
  }
  return into;
}
