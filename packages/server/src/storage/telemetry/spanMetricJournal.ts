import { mkdirSync, readdirSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The embedded store's journal of the metrics derived from spans (docs/decisions/metrics-from-spans.md,
 * "Written once a second"): each span batch's datapoint lines are appended to the current segment
 * file before the batch is acknowledged, and its points wait in memory (spanMetricWriter.ts) to
 * go into `datapoint_minutes` with those of the batches after it, as one part. An appended line
 * is in the kernel once `append` resolves, so a kill -9 keeps it, as it keeps a committed part
 * (the engine does not fsync its parts either). Once the points of every segment up to a `cut`
 * are committed, `drop` removes those segments; segments found when the store opens were left by
 * a process that stopped before that, and are inserted as they are (`leftovers`).
 *
 * The caller serialises `append` and `cut`, so that the points it holds for a cut are exactly the
 * lines of the segments before it.
 *
 * Each append ends with a batch mark: a kill during an append (or a failed one, e.g. a full disk)
 * leaves a batch without its mark, which was never acknowledged and is left out at the next start
 * (`completeBatches`); a failed append also closes its segment, so no later batch follows a torn one.
 */
export interface SpanMetricJournal {
  /** Appends TabSeparated datapoint lines (text or its UTF-8 bytes) to the current segment; resolves once written. */
  append(text: string | Uint8Array): Promise<void>;
  /** The segment the next append goes to. */
  readonly segment: number;
  /** Closes the current segment (appends go to a new one) and returns its number. */
  cut(): number;
  /** Removes the segments up to and including `cut` (their points are committed). */
  drop(cut: number): Promise<void>;
  /** Segment files left by an earlier process, oldest first (absolute paths). */
  leftovers(): string[];
}

const SEGMENT = /^segment-(\d+)\.tsv$/;
/** Ends every batch's lines (no datapoint line starts with '#'). */
export const BATCH_END = '#batch-end\n';

const MARK = Buffer.from(BATCH_END);
const LINE_AND_MARK = Buffer.from(`\n${BATCH_END}`);

/** The datapoint lines of a segment's batches that were appended whole, without their marks. */
export function completeBatches(segment: string): string {
  const at = segment.lastIndexOf(`\n${BATCH_END}`);
  const whole =
    segment.startsWith(BATCH_END) && at < 0 ? BATCH_END : at < 0 ? '' : segment.slice(0, at + 1 + BATCH_END.length);
  return whole.split(BATCH_END).join('');
}

/**
 * Opens the journal in `dir`. `firstSegment`: the lowest number a new segment may take (a caller
 * that records cuts elsewhere, as the datapoint fold's checkpoints do, keeps numbers rising).
 */
export function openSpanMetricJournal(dir: string, firstSegment = 0): SpanMetricJournal {
  mkdirSync(dir, { recursive: true });
  const found = readdirSync(dir)
    .map((f) => SEGMENT.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const path = (n: number) => join(dir, `segment-${n}.tsv`);
  let current = Math.max(firstSegment, found.length > 0 ? found[found.length - 1] + 1 : 0);
  // Segments written by this process and not yet dropped.
  const written = new Set<number>();
  // The current segment's file, kept open from its first append to the cut (an open and a close
  // an append were ~3 % of the event loop under remote write: bench/metrics/remoteWriteLoad.ts).
  let file: { n: number; handle: Promise<FileHandle> } | null = null;
  const closeFile = () => {
    const was = file;
    file = null;
    was?.handle.then((h) => h.close()).catch(() => {});
  };
  return {
    async append(text) {
      const n = current;
      written.add(n);
      try {
        if (file?.n !== n) {
          closeFile();
          file = { n, handle: open(path(n), 'a') };
        }
        const handle = await file.handle;
        const data = typeof text === 'string' ? Buffer.from(text) : text;
        const end = data.length === 0 || data[data.length - 1] === 10 ? MARK : LINE_AND_MARK;
        const { bytesWritten } = await handle.writev([data, end]);
        if (bytesWritten !== data.length + end.length)
          throw new Error(`journal append wrote ${bytesWritten} of ${data.length + end.length} bytes`);
      } catch (err) {
        if (current === n) {
          current++;
          closeFile();
        }
        throw err;
      }
    },
    get segment() {
      return current;
    },
    cut: () => {
      closeFile();
      return current++;
    },
    async drop(cut) {
      const done = [...written].filter((n) => n <= cut);
      await Promise.all(done.map((n) => rm(path(n), { force: true })));
      for (const n of done) written.delete(n);
    },
    leftovers: () => found.map(path),
  };
}
