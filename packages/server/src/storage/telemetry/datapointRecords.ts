import { EMPTY_HISTOGRAM, type DatapointLines } from './datapointStaging';
import type { FoldSeries } from './foldSeries';
import { BATCH_END } from './spanMetricJournal';

/**
 * Rows given as columns (remote write) in the fold's journal as records instead of TabSeparated
 * text (docs/decisions/metrics-ingest-fold.md, "Journal"): a batch is `#records <bytes>\n`, then
 * that many bytes, then the journal's `\n#batch-end\n`. The bytes: u32 series, u32 rows, then
 * the series not yet defined in this segment (u32 id, then `pre`, `post` and `tail`, each a u32
 * length and its UTF-8), then the rows (u32 series id, u32 time, f64 min, max, sum, count, gauge),
 * little-endian. A series is defined once a segment (FoldSeries.journalSeg): writing a sample is
 * a few numbers, not a line of text (docs/benchmarks.md, "Remote write, fifth round"). A start
 * reads a segment's batches, text or records, back as text lines (`segmentLines`), so segments of
 * the text format (every batch before this one) replay as before.
 */
const RECORDS = '#records ';
const ROW_BYTES = 48;

type SeriesText = Pick<FoldSeries, 'pre' | 'post' | 'tail'>;

let segments = 0;

/**
 * A number for a segment that no other segment of this process has (FoldSeries.journalSeg): a
 * series object may outlive a journal (a store closed and opened again, whose segment numbers
 * start over), and one of its segments must still define it.
 */
export function recordSegment(): number {
  return ++segments;
}

/** The batch of records for `lines`, to append to the segment numbered `seg` by `recordSegment` (its series defined there once). */
export function encodeRecords(lines: readonly DatapointLines[], seg: number): Buffer {
  const defs: FoldSeries[] = [];
  let defBytes = 0;
  let rows = 0;
  for (const l of lines) {
    rows += l.series.length;
    for (const s of l.series)
      if (s.journalSeg !== seg) {
        s.journalSeg = seg;
        defs.push(s);
        defBytes += 16 + s.preBytes.length + s.post.length + s.tailBytes.length;
      }
  }
  const size = 8 + defBytes + ROW_BYTES * rows;
  const head = `${RECORDS}${size}\n`;
  const buf = Buffer.allocUnsafe(head.length + size + 1);
  let at = buf.write(head, 0, 'latin1');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  view.setUint32(at, defs.length, true);
  view.setUint32(at + 4, rows, true);
  at += 8;
  const bytes = (b: Uint8Array) => {
    view.setUint32(at, b.length, true);
    buf.set(b, at + 4);
    at += 4 + b.length;
  };
  for (const s of defs) {
    view.setUint32(at, s.id, true);
    at += 4;
    bytes(s.preBytes);
    view.setUint32(at, s.post.length, true);
    at += 4 + buf.write(s.post, at + 4, 'latin1');
    bytes(s.tailBytes);
  }
  for (const l of lines) {
    const { series, times, values } = l;
    for (let i = 0; i < series.length; i++) {
      view.setUint32(at, series[i].id, true);
      view.setUint32(at + 4, times[i], true);
      const v = 5 * i;
      view.setFloat64(at + 8, values[v], true);
      view.setFloat64(at + 16, values[v + 1], true);
      view.setFloat64(at + 24, values[v + 2], true);
      view.setFloat64(at + 32, values[v + 3], true);
      view.setFloat64(at + 40, values[v + 4], true);
      at += ROW_BYTES;
    }
  }
  buf[at] = 10;
  return buf;
}

/** Rows given as columns as TabSeparated lines (DATAPOINT_COLUMNS): for a store that inserts text. */
export function linesText(lines: DatapointLines): string {
  const { series, times, values } = lines;
  let text = '';
  for (let i = 0; i < series.length; i++) text += line(series[i], times[i], values, 5 * i);
  return text;
}

/**
 * The datapoint lines of a fold segment's batches that were appended whole (a batch without its
 * end mark was never acknowledged), records turned back into lines, without the marks.
 */
export function segmentLines(segment: Buffer): string {
  const out: string[] = [];
  const defs = new Map<number, SeriesText>();
  let at = 0;
  while (at < segment.length) {
    if (segment.toString('latin1', at, at + RECORDS.length) === RECORDS) {
      const eol = segment.indexOf(10, at);
      const size = eol < 0 ? NaN : Number(segment.toString('latin1', at + RECORDS.length, eol));
      const end = eol + 1 + size;
      if (!Number.isInteger(size) || segment.toString('latin1', end, end + 1 + BATCH_END.length) !== `\n${BATCH_END}`)
        break;
      out.push(decode(segment.subarray(eol + 1, end), defs));
      at = end + 1 + BATCH_END.length;
      continue;
    }
    if (segment.toString('latin1', at, at + BATCH_END.length) === BATCH_END) {
      at += BATCH_END.length;
      continue;
    }
    const mark = segment.indexOf(`\n${BATCH_END}`, at, 'latin1');
    if (mark < 0) break;
    out.push(segment.toString('utf8', at, mark + 1));
    at = mark + 1 + BATCH_END.length;
  }
  return out.join('');
}

function decode(payload: Buffer, defs: Map<number, SeriesText>): string {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.length);
  const defCount = view.getUint32(0, true);
  const rows = view.getUint32(4, true);
  let at = 8;
  const text = () => {
    const n = view.getUint32(at, true);
    at += 4 + n;
    return payload.toString('utf8', at - n, at);
  };
  for (let d = 0; d < defCount; d++) {
    const id = view.getUint32(at, true);
    at += 4;
    defs.set(id, { pre: text(), post: text(), tail: text() });
  }
  let out = '';
  const values = new Float64Array(5);
  for (let r = 0; r < rows; r++, at += ROW_BYTES) {
    const s = defs.get(view.getUint32(at, true));
    if (s === undefined) throw new Error('datapoint journal: a record of a series not defined in its segment');
    for (let k = 0; k < 5; k++) values[k] = view.getFloat64(at + 8 + 8 * k, true);
    out += line(s, view.getUint32(at + 4, true), values, 0);
  }
  return out;
}

/** A row's line: `s`'s head at `time`, the five values from `v[at]`, `s`'s tail. */
function line(s: SeriesText, time: number, v: ArrayLike<number>, at: number): string {
  return `${s.pre}${time}${s.post}${v[at]}\t${v[at + 1]}\t${v[at + 2]}\t${v[at + 3]}\t${v[at + 4]}\t${EMPTY_HISTOGRAM}\t${s.tail}\n`;
}
