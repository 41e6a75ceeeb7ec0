import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byteWriter';
import { DatapointFold } from './datapointFold';
import { MalformedRowBinary, rowBinaryLines, writeRowBinary } from './datapointRowBinary';
import { datapointHead, datapointTail, datapointValues } from './datapointStaging';
import { FoldSeries } from './foldSeries';
import { tsv } from './tsvText';

/**
 * The fold's written rows as RowBinary (datapointRowBinary.ts): the bytes ClickHouse reads for
 * DATAPOINT_STRUCTURE, and read back as the text lines they stand for. The engine's read of them:
 * datapointFold.int.test.ts.
 */
const M = 1_767_000_000 - (1_767_000_000 % 60);
const tail = datapointTail(["it's", 'ünï', 'a\tb'], ['x\\y', 'çødé', 'l\nm']).slice(0, -1);
const metric = 'odd\tmetric\\ü';
const text = (time: number, sum: number, count = 1, t = tail, h: [number[], number[]] = [[], []]) =>
  `${datapointHead(3, metric, time, '12345678901234567890', 'counter')}${datapointValues(-1.5, 2e300, sum, count, 0.1, h)}${t}\n`;

describe('datapoint rows as RowBinary', () => {
  it('writes a row as RowBinary of the datapoint structure', () => {
    const s = new FoldSeries('7\tm\t', '\t258\tgauge\t', "['k']\t['v']");
    const out = new ByteWriter(16);
    writeRowBinary(out, s, {
      time: 0x01020304,
      min: 1,
      max: 2,
      sum: 3,
      count: 2 ** 32 + 5,
      gauge: -0.5,
      hist: null,
      tail: s.tail,
      tick: 0,
      seg: 0,
    });
    const f64 = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(n);
      return [...b];
    };
    expect([...out.data()]).toEqual([
      ...[7, 0, 0, 0, 1, 109], // project_id, metric
      ...[4, 3, 2, 1], // time
      ...[2, 1, 0, 0, 0, 0, 0, 0, 5, 103, 97, 117, 103, 101], // attrs_hash, instrument
      ...f64(1),
      ...f64(2),
      ...f64(3),
      ...[5, 0, 0, 0, 1, 0, 0, 0], // count
      ...f64(-0.5),
      ...[0, 0], // histogram
      ...[1, 1, 107, 1, 1, 118], // string_keys, string_values
    ]);
  });

  it('reads back the text of rows from columns and from lines, escapes, other tails and buckets kept', () => {
    const s = new FoldSeries(`3\t${tsv(metric)}\t`, '\t12345678901234567890\tcounter\t', tail);
    const fold = new DatapointFold();
    fold.addLines(
      { series: [s, s], times: [M, M + 60], values: [-1.5, 2e300, 1, 1, 0.1, -1.5, 2e300, 2, 1, 0.1] },
      0,
      0,
    );
    fold.addLines({ series: [s], times: [M], values: [-1.5, 2e300, 4, 1, 0.1] }, 1, 0);
    // A line of the key with another tail (its last line's is kept) and one with buckets.
    const other = datapointTail(['k'], ['']).slice(0, -1);
    fold.add(text(M + 60, 8, 1, other), 1, 0);
    const h: [number[], number[]] = [
      [0.25, 1e-9],
      [3, 2 ** 40],
    ];
    fold.add(text(M + 120, 16, 2, tail, h), 1, 0);
    const lines = rowBinaryLines(fold.take(() => true).data);
    expect(lines.split('\n').sort()).toEqual(
      ['', text(M, 5, 2), text(M + 60, 10, 2, other), text(M + 120, 16, 2, tail, h)].join('').split('\n').sort(),
    );
  });

  it('refuses cut rows', () => {
    const fold = new DatapointFold();
    fold.add(text(M, 1), 0, 0);
    const bin = fold.take(() => true).data;
    expect(() => rowBinaryLines(bin.subarray(0, bin.length - 3))).toThrow(MalformedRowBinary);
  });
});
