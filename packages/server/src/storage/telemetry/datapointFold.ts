import { ByteWriter } from './byteWriter';
import { EMPTY_HISTOGRAM, type DatapointLines } from './datapointStaging';
import { writeRowBinary } from './datapointRowBinary';
import { FoldSeries, type FoldRow } from './foldSeries';

/**
 * Datapoint lines (DATAPOINT_COLUMNS, TabSeparated, as metrics ingest stages them) folded in
 * memory per (project, metric, minute, series, instrument): what `datapoint_minutes` does to the
 * rows of one key on merge and its reads to the rows of one minute (docs/decisions/metrics-ingest-fold.md).
 * min and max combine (over lines with a count, as reads take them, once there is one), sum and
 * count add, `gauge`, `string_keys` and `string_values` keep the last line's (anyLast), histogram
 * buckets add by their value (sumMap). A Prometheus target scraped every 15 s sends four samples a
 * series and minute, an OTel SDK exporting every 10 s six: the engine gets one row for them.
 *
 * Rows are held by their series (FoldSeries: the key without the minute), each with its open
 * minutes: remote write gives its rows as columns with their series object (DatapointLines), so a
 * sample finds its row without a string key (docs/benchmarks.md, "Remote write, fifth round"). Text
 * lines (`head`: the first five fields and their tabs, six values, `tail`: the attribute arrays, then
 * the newline; lines that start with '#', the journal's marks, are skipped) find their series by
 * the head without its minute. One series object per key at a time: a series given as columns
 * takes over the rows of another object of its key, so a key never has two rows of a minute here
 * (a checkpoint writing one of them would make a start skip the other's lines).
 */

/** Tabs in a line before its tail: 5 after the head's fields, 6 after the values. */
const TABS = 11;
const HASH = 35; // '#'

export class MalformedDatapointLine extends Error {}

export class DatapointFold {
  /** The series holding rows, by key. */
  private series = new Map<string, FoldSeries>();
  private rowCount = 0;
  private readonly tabs = new Int32Array(TABS);

  /** Rows held (series x minutes). */
  get size(): number {
    return this.rowCount;
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
    if (skip?.(text.slice(start, tabs[4] + 1))) return false;
    const num = (i: number) => Number(text.slice(tabs[i] + 1, tabs[i + 1]));
    const pre = text.slice(start, tabs[1] + 1);
    const post = text.slice(tabs[2], tabs[4] + 1);
    const tail = text.slice(tabs[10] + 1, end);
    const series = this.series.get(pre + post) ?? new FoldSeries(pre, post, tail);
    const histText = text.slice(tabs[9] + 1, tabs[10]);
    const row = this.row(series, num(1), tick, seg);
    this.merge(row, num(4), num(5), num(6), num(7), num(8), tail, tick);
    if (histText !== EMPTY_HISTOGRAM) row.hist = addBuckets(row.hist ?? new Map<number, number>(), histText);
    return true;
  }

  /** Folds rows given as columns (the same rows as their text: DatapointLines) of segment `seg`, each marked with `tick`. */
  addLines(lines: DatapointLines, tick: number, seg: number): void {
    const { series, times, values } = lines;
    for (let i = 0; i < series.length; i++) {
      const s = series[i];
      const v = 5 * i;
      const row = this.row(s, times[i], tick, seg);
      this.merge(row, values[v], values[v + 1], values[v + 2], values[v + 3], values[v + 4], s.tail, tick);
    }
  }

  /** The row of `series` and minute `time`, new (empty) when none. */
  private row(series: FoldSeries, time: number, tick: number, seg: number): FoldRow {
    const last = series.last;
    if (last !== null && last.time === time) return last;
    if (series.key === null) this.hold(series);
    const rows = series.rows;
    // A series has few open minutes (one or two live; a held backfill's late ones), the newest last.
    if (time <= series.newest) {
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i].time === time) return (series.last = rows[i]);
    } else series.newest = time;
    // min and max as the first line's (merge: a row without a count takes the least and greatest).
    const row: FoldRow = {
      time,
      min: Infinity,
      max: -Infinity,
      sum: 0,
      count: 0,
      gauge: 0,
      hist: null,
      tail: '',
      tick,
      seg,
    };
    rows.push(row);
    series.last = row;
    this.rowCount++;
    return row;
  }

  /** Holds `series` (it has no rows), taking over the rows of another object of its key. */
  private hold(series: FoldSeries): void {
    const key = series.pre + series.post;
    const other = this.series.get(key);
    if (other !== undefined) {
      series.rows = other.rows;
      series.newest = other.newest;
      other.rows = [];
      other.last = null;
      other.newest = -Infinity;
      other.key = null;
    }
    series.key = key;
    this.series.set(key, series);
  }

  private merge(
    row: FoldRow,
    min: number,
    max: number,
    sum: number,
    count: number,
    gauge: number,
    tail: string,
    tick: number,
  ): void {
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
    row.tail = tail;
    row.tick = tick;
  }

  /**
   * Removes the rows `pick` chooses and returns them as RowBinary (datapointRowBinary.ts), with the earliest one's
   * time (Unix seconds; Infinity when none) and the earliest segment of the rows taken and of
   * those kept (Infinity when none).
   */
  take(pick: (time: number, tick: number) => boolean): {
    data: Buffer;
    rows: number;
    minTime: number;
    takenMinSeg: number;
    keptMinSeg: number;
  } {
    const out = new ByteWriter(128 * Math.min(this.rowCount, 100_000) + 1024);
    let rows = 0;
    let minTime = Infinity;
    let takenMinSeg = Infinity;
    let keptMinSeg = Infinity;
    for (const [key, series] of this.series) {
      // The rows kept move to the front of the series' own array (no array a series and take).
      const all = series.rows;
      let k = 0;
      for (let i = 0; i < all.length; i++) {
        const row = all[i];
        if (!pick(row.time, row.tick)) {
          if (row.seg < keptMinSeg) keptMinSeg = row.seg;
          all[k++] = row;
          continue;
        }
        writeRowBinary(out, series, row);
        rows++;
        if (row.time < minTime) minTime = row.time;
        if (row.seg < takenMinSeg) takenMinSeg = row.seg;
      }
      if (k === all.length) continue;
      this.rowCount -= all.length - k;
      all.length = k;
      series.last = null;
      series.newest = -Infinity;
      for (let i = 0; i < k; i++) if (all[i].time > series.newest) series.newest = all[i].time;
      if (k === 0) {
        series.key = null;
        this.series.delete(key);
      }
    }
    return { data: out.data(), rows, minTime, takenMinSeg, keptMinSeg };
  }
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
