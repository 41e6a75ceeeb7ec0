import { describe, expect, it } from 'vitest';
import { DatapointFold } from './datapointFold';
import { FoldSeries } from './foldSeries';
import { rowBinaryLines } from './datapointRowBinary';
import { datapointHead, datapointTail, datapointValues } from './datapointStaging';

/**
 * The fold keyed by series objects (datapointFold.ts): rows given as columns (remote write) and as
 * text lines (OTLP, a start's segments) fold into one row per key and minute, whichever way each
 * sample came and whichever object of the key carried it; a take writes what the text path writes.
 * The store around it (journal, checkpoints, kill -9): datapointFold.int.test.ts.
 */
const M = 1_767_000_000 - (1_767_000_000 % 60);
const head = (metric: string, time: number) => datapointHead(3, metric, time, '11', 'counter');
const tail = datapointTail(['job', 'ünï'], ['api', 'çødé']).slice(0, -1);
const text = (metric: string, time: number, sum: number, count = 1) =>
  `${head(metric, time)}${datapointValues(0, 0, sum, count, 0, [[], []])}${tail}\n`;
const series = (metric: string) => new FoldSeries(`3\t${metric}\t`, '\t11\tcounter\t', tail);
/** Rows of `of` at `times`, sums `sums` (count 1 each), as remote write gives them. */
const columns = (of: FoldSeries[], times: number[], sums: number[]) => ({
  series: of,
  times,
  values: sums.flatMap((s) => [0, 0, s, 1, 0]),
});
const taken = (fold: DatapointFold, pick = () => true) =>
  rowBinaryLines(fold.take(pick).data).split('\n').filter(Boolean);

describe('DatapointFold', () => {
  it('folds columns per series object and minute, and writes them as the text path does', () => {
    const a = series('a_total');
    const b = series('b_total');
    const byColumns = new DatapointFold();
    byColumns.addLines(columns([a, b, a], [M, M, M + 60], [1, 2, 3]), 0, 0);
    byColumns.addLines(columns([a, b], [M, M], [4, 5]), 1, 1);
    expect(byColumns.size).toBe(3);
    const byText = new DatapointFold();
    byText.add(text('a_total', M, 1) + text('b_total', M, 2) + text('a_total', M + 60, 3), 0, 0);
    byText.add(text('a_total', M, 4) + text('b_total', M, 5), 1, 1);
    const out = taken(byColumns).sort();
    expect(out).toEqual(taken(byText).sort());
    expect(out).toEqual(
      [text('a_total', M, 5, 2), text('a_total', M + 60, 3), text('b_total', M, 7, 2)].map((l) => l.slice(0, -1)),
    );
    expect(byColumns.size).toBe(0);
  });

  it('keeps one row per key and minute whether its samples came as text or columns, or by another object of the key', () => {
    const fold = new DatapointFold();
    fold.add(text('c_total', M, 1), 0, 0);
    const first = series('c_total');
    fold.addLines(columns([first], [M], [2]), 0, 1);
    // The series made again (its entry dropped and found again): the rows so far are its rows.
    const again = series('c_total');
    fold.addLines(columns([again], [M], [4]), 1, 2);
    fold.add(text('c_total', M, 8), 1, 2);
    expect(fold.size).toBe(1);
    // The segment of its first line goes with the row: a checkpoint's keys then cover every line.
    expect(fold.take(() => true)).toMatchObject({ rows: 1, takenMinSeg: 0, keptMinSeg: Infinity });
    fold.addLines(columns([first], [M], [16]), 2, 3);
    expect(taken(fold)).toEqual([text('c_total', M, 16).slice(0, -1)]);
  });

  it('finds a row of an earlier minute for a sample out of time order, also after a take', () => {
    const fold = new DatapointFold();
    const a = series('a_total');
    fold.addLines(columns([a, a, a, a], [M + 60, M, M + 120, M + 60], [1, 2, 4, 8]), 0, 0);
    expect(fold.size).toBe(3);
    fold.take((time) => time === M + 120);
    fold.addLines(columns([a, a, a], [M, M + 120, M + 60], [16, 32, 64]), 1, 1);
    expect(taken(fold).sort()).toEqual(
      [text('a_total', M, 18, 2), text('a_total', M + 60, 73, 3), text('a_total', M + 120, 32)].map((l) =>
        l.slice(0, -1),
      ),
    );
  });

  it('takes only the rows picked and keeps the others with their earliest segment', () => {
    const fold = new DatapointFold();
    const a = series('a_total');
    fold.addLines(columns([a, a, a], [M, M + 60, M + 120], [1, 2, 3]), 0, 4);
    fold.addLines(columns([a], [M + 180], [4]), 1, 5);
    const out = fold.take((time) => time === M + 60 || time === M + 180);
    expect(out).toMatchObject({ rows: 2, minTime: M + 60, takenMinSeg: 4, keptMinSeg: 4 });
    expect(fold.size).toBe(2);
    expect(taken(fold)).toEqual([text('a_total', M, 1).slice(0, -1), text('a_total', M + 120, 3).slice(0, -1)]);
  });
});
