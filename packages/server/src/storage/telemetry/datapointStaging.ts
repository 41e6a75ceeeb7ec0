import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoldSeries } from './foldSeries';
import { quoted, tsv } from './tsvText';

/**
 * Datapoint rows (`datapoint_minutes`) as TabSeparated lines, and staged as span rows are
 * (spanStaging.ts): the thread that encoded a large chunk (a prepare worker) writes it to the
 * store's staging directory and only its file name travels; a small chunk keeps its bytes. The
 * embedded store inserts a batch with one `INSERT ... SELECT FROM file(...)`.
 *
 * A line is built in three parts so the middle one (the values) can be filled in later, on
 * another thread: metrics ingest maps a request on a worker, but the cumulative-to-delta step
 * that gives a counter's value runs on one thread (metrics/ingest/prepareMetrics.ts).
 */
export const DATAPOINT_COLUMNS: readonly string[] = [
  'project_id',
  'metric',
  'time',
  'attrs_hash',
  'instrument',
  'min',
  'max',
  'sum',
  'count',
  'gauge',
  'histogram',
  'string_keys',
  'string_values',
];

export const DATAPOINT_FILE_SUFFIX = '.datapoints.tsv';

/** Chunks of at least this many bytes are written to files. */
export const DATAPOINT_FILE_MIN_BYTES = 128 * 1024;

export interface StagedDatapoints {
  rows: number;
  bytes: number;
  /** A large chunk: its file (`<dir>/<uuid>` + DATAPOINT_FILE_SUFFIX). */
  file: string | null;
  /** A small chunk: the TSV bytes themselves (null with `lines`: the rows are those). */
  data: Uint8Array | null;
  /**
   * The earliest row's time (Unix seconds; absent: unknown): the embedded store rolls a batch's
   * rows up at once only when some are older than its rollups' watermark (datapointRollups.ts).
   */
  minTime?: number;
  /**
   * The rows as columns (remote write makes them on the main thread), for the embedded store's
   * fold to take and journal as records; a store that inserts text makes it from them
   * (datapointRecords.ts, `linesText`). Absent: the rows are the text.
   */
  lines?: DatapointLines;
}

/**
 * Rows without histograms as columns: row i is series[i]'s head at `times[i]`, five values from
 * `values[5 * i]` (min, max, sum, count, gauge) and the series' tail.
 */
export interface DatapointLines {
  series: FoldSeries[];
  /** Unix seconds, on a minute boundary (at least `series.length`; typed arrays: no garbage a sample). */
  times: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** `project_id \t metric \t time \t attrs_hash \t instrument \t`: `time` in Unix seconds, `hash` a decimal UInt64. */
export function datapointHead(
  projectId: number,
  metric: string,
  time: number,
  hash: string,
  instrument: string,
): string {
  return `${projectId}\t${tsv(metric)}\t${time}\t${hash}\t${instrument}\t`;
}

/** `string_keys \t string_values \n` (sorted keys, values as text). */
export function datapointTail(keys: readonly string[], values: readonly string[]): string {
  return `[${keys.map(quoted).join(',')}]\t[${values.map(quoted).join(',')}]\n`;
}

/** A datapoint line's histogram field when it has no buckets. */
export const EMPTY_HISTOGRAM = '([],[])';

/** `min \t max \t sum \t count \t gauge \t histogram \t`; numbers finite, count a whole number. */
export function datapointValues(
  min: number,
  max: number,
  sum: number,
  count: number,
  gauge: number,
  histogram: readonly [readonly number[], readonly number[]],
): string {
  return `${min}\t${max}\t${sum}\t${count}\t${gauge}\t([${histogram[0].join(',')}],[${histogram[1].join(',')}])\t`;
}

/**
 * Stages encoded lines: to a file in `dir` when large (synchronously: it runs on a worker
 * thread), in memory when small or when the store has no staging directory (`dir` null).
 */
export function stageDatapoints(
  dir: string | null,
  text: string,
  rows: number,
  minFileBytes = DATAPOINT_FILE_MIN_BYTES,
  minTime?: number,
): StagedDatapoints {
  const data = Buffer.from(text);
  const time = minTime === undefined ? {} : { minTime };
  if (dir === null || data.length < minFileBytes) return { rows, bytes: data.length, file: null, data, ...time };
  const file = join(dir, randomUUID() + DATAPOINT_FILE_SUFFIX);
  writeFileSync(file, data);
  return { rows, bytes: data.length, file, data: null, ...time };
}

/** Removes chunks' files; removing twice is harmless. */
export async function unstageDatapoints(chunks: readonly StagedDatapoints[]): Promise<void> {
  await Promise.all(chunks.flatMap(({ file }) => (file ? [rm(file, { force: true })] : [])));
}
