import { describe, expect, it } from 'vitest';
import { FoldSeries } from './foldSeries';
import { encodeRecords, linesText, segmentLines } from './datapointRecords';

/**
 * Remote write's rows in the fold's journal as records (datapointRecords.ts): a start reads a
 * segment's batches back as the text lines they stand for, records and text batches alike, and
 * leaves out a batch not appended whole. The journal's appends and a start: datapointFold.int.test.ts,
 * ingest/durability.int.test.ts.
 */
const END = '#batch-end\n';
const M = 1_767_000_000 - (1_767_000_000 % 60);
const a = new FoldSeries('3\tup_total\t', '\t11\tcounter\t', "['job']\t['ápi']");
const b = new FoldSeries('3\ttemp\t', '\t12\tgauge\t', "['room']\t['a']");
const rows = (of: FoldSeries[], sums: number[]) => ({
  series: of,
  times: new Float64Array(of.map((_, i) => M + 60 * i)),
  values: new Float64Array(sums.flatMap((s) => [s / 2, s, s, 1, s])),
});
/** A segment as the journal appends it: each batch, then its end mark. */
const segment = (...batches: (string | Buffer)[]) =>
  Buffer.concat(batches.map((x) => Buffer.concat([Buffer.from(x), Buffer.from(END)])));

describe('datapoint journal records', () => {
  it('reads records back as the lines of their rows, a series defined once a segment', () => {
    const first = rows([a, b], [1.5, 2]);
    const second = rows([b, a], [3, 4e-7]);
    const x = encodeRecords([first], 7);
    const y = encodeRecords([second], 7);
    // The second batch of the segment holds no definition: rows only (8 bytes of counts, 48 a row).
    expect(y.length).toBe(`#records ${8 + 2 * 48}\n`.length + 8 + 2 * 48 + 1);
    expect(x.length).toBeGreaterThan(y.length + 40);
    const text = linesText(first) + linesText(second);
    expect(text.split('\n')[0]).toBe(
      `3\tup_total\t${M}\t11\tcounter\t0.75\t1.5\t1.5\t1\t1.5\t([],[])\t['job']\t['ápi']`,
    );
    expect(segmentLines(segment(x, y))).toBe(text);
    // A new segment defines its series again.
    expect(encodeRecords([second], 8).length).toBe(x.length);
  });

  it('reads text batches and record batches of one segment, and leaves out a batch not appended whole', () => {
    const text = `3\tc\t${M}\t1\tgauge\t1\t1\t1\t1\t1\t([],[])\t[]\t[]\n`;
    const x = encodeRecords([rows([a], [5])], 9);
    const y = encodeRecords([rows([a], [6])], 9);
    const whole = segment(text, x, '', y);
    expect(segmentLines(whole)).toBe(text + linesText(rows([a], [5])) + linesText(rows([a], [6])));
    // A kill during the last append: its batch has no end mark (or not all its bytes).
    for (const cut of [1, 12, END.length + 1, y.length + END.length - 1])
      expect(segmentLines(whole.subarray(0, whole.length - cut))).toBe(text + linesText(rows([a], [5])));
    // A segment of the text format, as every batch before records was.
    expect(segmentLines(Buffer.from(`${text}${END}${text}${END}${text}`))).toBe(text + text);
  });
});
