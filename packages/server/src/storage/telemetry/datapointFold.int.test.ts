import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { param, sql } from '../sql';
import { openChdbStore } from './chdbStore';
import { FoldSeries } from './foldSeries';
import { DatapointFold } from './datapointFold';
import { encodeRecords, segmentLines } from './datapointRecords';
import { rowBinaryLines } from './datapointRowBinary';
import { datapointHead, datapointTail, datapointValues, stageDatapoints } from './datapointStaging';
import type { TelemetryStore } from './telemetryStore';

/**
 * Metrics ingest's datapoints folded per series and minute before the engine (datapointFold.ts,
 * datapointFoldWriter.ts): one row per (series, minute) whatever the number of samples, as the
 * reads fold them; a closed minute written by the tick; checkpoints inserted again at a start
 * counted once, the lines of a checkpoint never inserted and of later segments counted. The kill
 * -9 itself: ingest/durability.int.test.ts.
 */
const path = mkdtempSync(join(tmpdir(), 'lantern-datapoint-fold-'));
afterAll(() => rmSync(path, { recursive: true, force: true }));
const journal = join(path, 'datapoint-journal');
const files = () => readdirSync(journal).sort();
/** A checkpoint renamed into place (not its temporary file while written). */
const isCheckpoint = (name: string) => /^checkpoint-\d+-[0-9a-f-]{36}\.rowbinary$/.test(name);
/** A checkpoint's rows (RowBinary) as text lines. */
const checkpointLines = (name: string) => rowBinaryLines(readFileSync(join(journal, name)));

const open = (foldTickMs = 0) =>
  openChdbStore({
    path,
    ttl: { spansDays: 30, metricsDays: 90 },
    maxMemoryUsage: 2 * 1024 ** 3,
    maxThreads: 2,
    foldTickMs,
  });

const MINUTE = Math.floor(Date.now() / 60_000) * 60;
const line = (
  metric: string,
  v: { min: number; max: number; sum: number; count: number; gauge: number; h?: [number[], number[]] },
  time = MINUTE,
  instrument = 'gauge',
) =>
  datapointHead(41, metric, time, '7', instrument) +
  datapointValues(v.min, v.max, v.sum, v.count, v.gauge, v.h ?? [[], []]) +
  datapointTail(['host'], ['a']);
const gauge = (metric: string, g: number, time = MINUTE) =>
  line(metric, { min: g, max: g, sum: g, count: 1, gauge: g }, time);
const write = (s: TelemetryStore, ...lines: string[]) =>
  s.insertStagedDatapoints([stageDatapoints(null, lines.join(''), lines.length)]);
/** A chunk that tells its earliest row's time (as ingest's do). */
const writeAt = (s: TelemetryStore, minTime: number, line: string) =>
  s.insertStagedDatapoints([stageDatapoints(null, line, 1, undefined, minTime)]);

const rows = async (s: TelemetryStore, metric: string) =>
  s.query<{ min: number; max: number; sum: number; count: string; gauge: number; histogram: [number[], string[]] }>(
    sql`SELECT min, max, sum, count, gauge, histogram FROM datapoint_minutes WHERE project_id = 41 AND metric = ${param.string(metric)} ORDER BY time`,
  );
const total = async (s: TelemetryStore, metric: string) =>
  (await rows(s, metric)).reduce((n, r) => n + Number(r.count), 0);
/** Per minute: samples, least min and greatest max (rows of one minute may be merged by then or not). */
const minutes = async (s: TelemetryStore, metric: string) =>
  (
    await s.query<{ count: string; min: number; max: number }>(
      sql`SELECT sum(count) AS count, min(min) AS min, max(max) AS max FROM datapoint_minutes WHERE project_id = 41 AND metric = ${param.string(metric)} GROUP BY time ORDER BY time`,
    )
  ).map((r) => [Number(r.count), r.min, r.max]);

describe('datapoint fold', () => {
  it('writes one row per series and minute, folded as the reads fold them', async () => {
    const s = open();
    await s.migrate();
    try {
      await write(s, gauge('g', 40), gauge('g', 38));
      await write(s, gauge('g', 42));
      // A histogram's empty export (no values, 0s) before and after two with values.
      const hist = (count: number, min: number, max: number, h: [number[], number[]]) =>
        line('h', { min, max, sum: count * 10, count, gauge: 0, h }, MINUTE, 'histogram');
      await write(
        s,
        hist(0, 0, 0, [[], []]),
        hist(3, 5, 20, [
          [7.5, 17.5],
          [2, 1],
        ]),
      );
      await write(s, hist(2, 4, 9, [[7.5], [2]]), hist(0, 0, 0, [[], []]));
      expect(await rows(s, 'g')).toEqual([{ min: 38, max: 42, sum: 120, count: '3', gauge: 42, histogram: [[], []] }]);
      expect(await rows(s, 'h')).toEqual([
        {
          min: 4,
          max: 20,
          sum: 50,
          count: '5',
          gauge: 0,
          histogram: [
            [7.5, 17.5],
            ['4', '1'],
          ],
        },
      ]);
      // A sample for a minute already written: another row, added up by reads.
      await write(s, gauge('g', 44));
      expect(await total(s, 'g')).toBe(4);
    } finally {
      await s.close();
    }
  });

  it('writes a closed minute on its own once no sample touched it for a tick, and keeps the open one', async () => {
    const s = open(50);
    await s.migrate();
    try {
      await write(s, gauge('tick', 1, MINUTE - 600), gauge('tick', 2, MINUTE));
      // Only the tick writes now (no read): a checkpoint holding only the closed minute (the open
      // one stays in its segment). On a loaded machine a tick may come while the closed minute was
      // still touched within the last one.
      const deadline = Date.now() + 20_000;
      const checkpointText = () => {
        const f = files().find(isCheckpoint);
        return f ? checkpointLines(f) : '';
      };
      let checkpoint = checkpointText();
      while (!checkpoint && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
        checkpoint = checkpointText();
      }
      expect(checkpoint).toBe(gauge('tick', 1, MINUTE - 600));
      // The open minute's segment is kept, and the checkpoint with it (its key covers the segment's closed-minute line).
      const segments = files().filter((f) => f.startsWith('segment-'));
      expect(segments.map((f) => readFileSync(join(journal, f), 'utf8')).join('')).toContain(gauge('tick', 2, MINUTE));
      expect(await total(s, 'tick')).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('holds closed rows older than the rollups watermark while more such lines come, then writes them together', async () => {
    const s = open(300);
    await s.migrate();
    try {
      // An hour ago: older than the watermark (15 minutes behind). Minute A once, then minute B
      // every 10 ms for 1.5 s (five ticks): A is closed and untouched, but a backfill is under way.
      const a = gauge('late', 1, MINUTE - 3600);
      await writeAt(s, MINUTE - 3600, a);
      const until = Date.now() + 1500;
      let n = 0;
      while (Date.now() < until) {
        await writeAt(s, MINUTE - 3540, gauge('late', 2, MINUTE - 3540));
        n++;
        expect(files().filter((f) => f.startsWith('checkpoint-'))).toEqual([]);
        await new Promise((r) => setTimeout(r, 10));
      }
      // Then the ticks write them (no read before): A first, B with it or a tick later (its last line
      // may be younger than a tick when the lines stop; a whole run once saw A alone first).
      const deadline = Date.now() + 20_000;
      let written = '';
      while (!written && Date.now() < deadline) {
        const f = files().find(isCheckpoint);
        written = f ? checkpointLines(f) : '';
        if (!written) await new Promise((r) => setTimeout(r, 5));
      }
      expect(written).toContain(a);
      expect(await total(s, 'late')).toBe(n + 1);
    } finally {
      await s.close();
    }
  });

  it('counts once a checkpoint inserted again at a start, and a checkpoint never inserted and later segments at a start', async () => {
    let s = open();
    await s.migrate();
    await write(s, gauge('dedup', 1), gauge('dedup', 2));
    expect(await total(s, 'dedup')).toBe(2);
    await s.close();
    // A clean stop wrote every row: nothing is left to insert.
    expect(files().filter((f) => f.startsWith('checkpoint-') || f.startsWith('segment-'))).toEqual([]);

    // What a kill after a checkpoint's rename leaves (insert committed or not): the checkpoint
    // (the rows it writes) and the segments with the lines of the rows kept. Segment `cut` holds a
    // line of a written key (in the checkpoint's row) and one of a kept row; the next segment a
    // later line of the written key (a new row) and a torn batch.
    const cut = 1000;
    const token = randomUUID();
    const written = gauge('left', 1);
    writeFileSync(join(journal, `checkpoint-${cut}-${token}.tsv`), written);
    writeFileSync(join(journal, `segment-${cut}.tsv`), `${written}${gauge('left', 2, MINUTE + 60)}#batch-end\n`);
    writeFileSync(join(journal, `segment-${cut + 1}.tsv`), `${gauge('left', 3)}#batch-end\n${gauge('left', 4)}`);
    s = open();
    await s.migrate();
    // 1 (the checkpoint's), 2 (kept) and 3 (the later segment's whole batch); not 1 again (its
    // key is written up to the cut) nor 4 (torn).
    expect(await minutes(s, 'left')).toEqual([
      [2, 1, 3],
      [1, 2, 2],
    ]);
    expect(files()).toEqual([]);
    await s.close();
    // The same checkpoint again (a kill after its insert committed): dropped by its token.
    writeFileSync(join(journal, `checkpoint-${cut + 5}-${token}.tsv`), written);
    s = open();
    await s.migrate();
    expect(await total(s, 'left')).toBe(3);
    await s.close();
  });

  it('reads RowBinary checkpoints at a start: inserted with their token, their keys written up to their cut', async () => {
    // Escapes in the metric and the attributes, the largest hash, a histogram: the engine reads
    // from the RowBinary what the text says.
    const metric = "rb\tbin'ü";
    const tail = datapointTail(["k'1", 'ü'], ['a\\b', 'ç\nd']);
    const rb = (v: number, time = MINUTE, h: [number[], number[]] = [[], []]) =>
      datapointHead(41, metric, time, '18446744073709551615', 'histogram') + datapointValues(v, v, v, 1, v, h) + tail;
    const first = rb(1, MINUTE, [
      [0.5, 2.5],
      [1, 3],
    ]);
    const fold = new DatapointFold();
    fold.add(first, 0, 0);
    const bin = fold.take(() => true).data;
    expect(rowBinaryLines(bin)).toBe(first);
    const cut = 4000;
    const token = randomUUID();
    writeFileSync(join(journal, `checkpoint-${cut}-${token}.rowbinary`), bin);
    writeFileSync(join(journal, `segment-${cut}.tsv`), `${first}${rb(2, MINUTE + 60)}#batch-end\n`);
    let s = open();
    await s.migrate();
    try {
      expect(await minutes(s, metric)).toEqual([
        [1, 1, 1],
        [1, 2, 2],
      ]);
      expect(
        await s.query(
          sql`SELECT toString(attrs_hash) AS hash, string_keys, string_values, histogram FROM datapoint_minutes WHERE project_id = 41 AND metric = ${param.string(metric)} AND time = toDateTime(${param.uint32(MINUTE)})`,
        ),
      ).toEqual([
        {
          hash: '18446744073709551615',
          string_keys: ["k'1", 'ü'],
          string_values: ['a\\b', 'ç\nd'],
          histogram: [
            [0.5, 2.5],
            ['1', '3'],
          ],
        },
      ]);
      expect(files()).toEqual([]);
    } finally {
      await s.close();
    }
    // The same checkpoint again with a segment of its key's line (a kill after its insert
    // committed, before its segments were removed): dropped by its token, the line not counted.
    writeFileSync(join(journal, `checkpoint-${cut + 5}-${token}.rowbinary`), bin);
    writeFileSync(join(journal, `segment-${cut + 5}.tsv`), `${first}#batch-end\n`);
    s = open();
    await s.migrate();
    try {
      expect(await total(s, metric)).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('replays remote write records left in segments at a start, as the text lines they stand for', async () => {
    // Remote write's rows are journaled as records (datapointRecords.ts), its series defined once a
    // segment: a kill leaves them as the text case above (a checkpoint of a key, kept rows, a later
    // segment and a torn batch), here with a text batch of the same series between records.
    const rw = new FoldSeries('41\trw\t', '\t7\tgauge\t', datapointTail(['host'], ['a']).slice(0, -1));
    const records = (...points: [number, number][]) =>
      encodeRecords(
        [
          {
            series: points.map(() => rw),
            times: points.map(([t]) => t),
            values: points.flatMap(([, g]) => [g, g, g, 1, g]),
          },
        ],
        // One segment per call: every batch defines its series.
        Math.random(),
      );
    const cut = 3000;
    const rwGauge = (g: number, time = MINUTE) => line('rw', { min: g, max: g, sum: g, count: 1, gauge: g }, time);
    writeFileSync(join(journal, `checkpoint-${cut}-${randomUUID()}.tsv`), rwGauge(1));
    const end = Buffer.from('#batch-end\n');
    writeFileSync(
      join(journal, `segment-${cut}.tsv`),
      Buffer.concat([records([MINUTE, 1], [MINUTE + 60, 2]), end, Buffer.from(rwGauge(5, MINUTE + 60)), end]),
    );
    const torn = records([MINUTE + 120, 100]);
    writeFileSync(
      join(journal, `segment-${cut + 1}.tsv`),
      Buffer.concat([records([MINUTE, 3]), end, torn.subarray(0, torn.length - 4)]),
    );
    const s = open();
    await s.migrate();
    try {
      // 1 (the checkpoint's), 2 and 5 (kept, one row), 3 (the later segment); not 1 again, nor 100 (torn).
      expect(await minutes(s, 'rw')).toEqual([
        [2, 1, 3],
        [2, 2, 5],
      ]);
      expect(files()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('defines a series again in the segments of a store opened again in the same process', async () => {
    // The series objects are remote write's (they outlive a store); segment numbers start over.
    const again = new FoldSeries('41\tagain\t', '\t7\tgauge\t', datapointTail(['host'], ['a']).slice(0, -1));
    const chunk = (g: number) => ({
      rows: 1,
      bytes: 100,
      file: null,
      data: null,
      lines: { series: [again], times: [MINUTE], values: [g, g, g, 1, g] },
    });
    for (const g of [1, 2]) {
      const s = open();
      await s.migrate();
      try {
        await s.insertStagedDatapoints([chunk(g)]);
        // What a start after a kill would read now: the record with its series' text.
        const segments = files().filter((f) => f.startsWith('segment-'));
        expect(segments.map((f) => segmentLines(readFileSync(join(journal, f)))).join('')).toBe(
          line('again', { min: g, max: g, sum: g, count: 1, gauge: g }),
        );
      } finally {
        await s.close();
      }
    }
  });

  it('reads a checkpoint of the earlier format (written and kept rows) at a start', async () => {
    // It covers every line of the segments up to its cut: segment `cut` is not read.
    const cut = 2000;
    writeFileSync(
      join(journal, `checkpoint-${cut}-${randomUUID()}.tsv`),
      `${gauge('legacy', 1)}#kept\n${gauge('legacy', 2)}`,
    );
    writeFileSync(join(journal, `segment-${cut}.tsv`), `${gauge('legacy', 100)}#batch-end\n`);
    writeFileSync(join(journal, `segment-${cut + 1}.tsv`), `${gauge('legacy', 3)}#batch-end\n`);
    const s = open();
    await s.migrate();
    try {
      expect(await minutes(s, 'legacy')).toEqual([[3, 1, 3]]);
      expect(files()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
