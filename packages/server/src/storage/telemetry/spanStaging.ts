import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoldedSpanMetrics } from './spanMetricRows';
import type { EncodedSpans } from './spanRowEncoding';

/**
 * Encoded span rows as they wait for their batch. A large chunk (a typical SDK or Collector
 * request) is written to a staging directory by the thread that encoded it (a prepare worker), so
 * the main thread only passes its file names around: its megabytes never cross threads, are never
 * concatenated, and never count against the main thread's heap, where they used to cost a major
 * GC several times a second (bench/ingest, docs/benchmarks.md). A small chunk keeps its bytes in
 * memory: a file per small request would cost more than the copy. The embedded store inserts a
 * batch straight from files.
 *
 * A chunk's files belong to whoever holds it: the store removes a batch's files once its insert
 * returns, committed or not, and a request the batcher refuses removes its own. Files left by a
 * crash are removed when the store opens (`resetStagingDir`); nothing in them was acknowledged.
 */
export interface StagedSpans {
  rows: number;
  indexBytes: number;
  dataBytes: number;
  /** A large chunk: `<dir>/<name>` + STAGED_SUFFIX per table. */
  file: { dir: string; name: string } | null;
  /** A small chunk: the bytes themselves. */
  bytes: { index: Uint8Array; data: Uint8Array } | null;
  /**
   * The chunk's rows folded into the metrics derived from spans (metricsFromSpans/spanMetricPoints.ts), written
   * with the spans by `withSpanMetrics`; absent or null: none.
   */
  points?: FoldedSpanMetrics | null;
}

/** Chunks of at least this many bytes (both tables) are written to files. */
export const STAGE_FILE_MIN_BYTES = 256 * 1024;

export const STAGED_SUFFIX = { index: '.index.tsv', data: '.data.tsv' } as const;
export type StagedTable = keyof typeof STAGED_SUFFIX;
export const STAGED_TABLES: readonly StagedTable[] = ['index', 'data'];

/** The file of a staged chunk (one with `file`) for one table. */
export function stagedFile(file: { dir: string; name: string }, table: StagedTable): string {
  return join(file.dir, file.name + STAGED_SUFFIX[table]);
}

/**
 * Stages encoded rows: to files in `dir` when large (synchronously: it runs on a worker thread),
 * in memory when small or when the store has no staging directory (`dir` null).
 */
export function stageSpans(
  dir: string | null,
  encoded: EncodedSpans,
  minFileBytes = STAGE_FILE_MIN_BYTES,
): StagedSpans {
  const { rows, index, data } = encoded;
  const sizes = { rows, indexBytes: index.length, dataBytes: data.length };
  if (dir === null || index.length + data.length < minFileBytes)
    return { ...sizes, file: null, bytes: { index, data } };
  const file = { dir, name: randomUUID() };
  try {
    writeFileSync(stagedFile(file, 'index'), index);
    writeFileSync(stagedFile(file, 'data'), data);
  } catch (err) {
    rmSync(stagedFile(file, 'index'), { force: true });
    throw err;
  }
  return { ...sizes, file, bytes: null };
}

/** Removes chunks' files; removing twice is harmless. */
export async function unstageSpans(chunks: readonly StagedSpans[]): Promise<void> {
  await Promise.all(
    chunks.flatMap(({ file }) => (file ? STAGED_TABLES.map((t) => rm(stagedFile(file, t), { force: true })) : [])),
  );
}

/** An empty staging directory (left-overs of a crash removed). */
export function resetStagingDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
