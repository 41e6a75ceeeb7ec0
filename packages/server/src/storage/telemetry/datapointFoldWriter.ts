import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatapointFold } from './datapointFold';
import { unstageDatapoints, type StagedDatapoints } from './datapointStaging';
import { completeBatches, openSpanMetricJournal } from './spanMetricJournal';

/**
 * The embedded store's way in for metrics ingest's datapoint lines (docs/decisions/metrics-ingest-fold.md):
 * a batch's lines are appended to a journal (the segments of spanMetricJournal.ts) and folded in
 * memory per series and minute (DatapointFold); the batch is acknowledged once appended. A row goes
 * to `datapoint_minutes` once its minute has closed (its end plus FOLD_LAG_S past) and no line
 * touched it for a whole tick, before any read of the datapoint tables (the store's `query`
 * flushes every row first), at close, and every row at once when the fold holds `maxRows` rows or
 * the journal has grown by JOURNAL_MAX_BYTES since the last flush. A sample for a minute already
 * written makes another row of that minute, which the table's merges and every read fold.
 *
 * A flush is a checkpoint: the journal is cut; the rows written (R) and the rows kept (K) go into
 * one file, `checkpoint-<cut>-<uuid>.tsv` (written to a temporary name and renamed, so it is there
 * whole or not at all); the segments up to the cut and earlier checkpoints are removed; then R is
 * inserted with the uuid as its `insert_deduplication_token` (datapoint_minutes keeps the tokens
 * of its last inserts: migration 17). Opening inserts the last checkpoint's R again with its token
 * (the table drops it if that insert had committed), and folds its K with the whole batches of the
 * later segments, then flushes them all. So a kill -9 at any moment loses no acknowledged line and
 * counts none twice.
 */

/** How long after a minute's end its rows wait for late samples (Prometheus' remote write sends within ~5 s, OTel SDKs at the end of an export interval). */
export const FOLD_LAG_S = 20;
/** How often closed rows are written. */
export const FOLD_TICK_MS = 1000;
/** Rows (series x open minutes) the fold holds before it writes them all (config `metrics.fold_max_rows`). */
export const FOLD_MAX_ROWS = 200_000;
/** Journal bytes appended since the last flush past which every row is written. */
const JOURNAL_MAX_BYTES = 256 * 1024 * 1024;

const CHECKPOINT = /^checkpoint-(\d+)-([0-9a-f-]{36})\.tsv$/;
/** Between a checkpoint's written rows and its kept ones (no datapoint line starts with '#'). */
const KEPT = '#kept\n';

/**
 * Whether a fold journal directory holds datapoints a start would still insert: segments, or a
 * checkpoint with kept rows (a clean stop leaves only a checkpoint whose rows are all written).
 */
export function foldJournalPending(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some(
    (f) => /^segment-\d+\.tsv$/.test(f) || (CHECKPOINT.test(f) && !readFileSync(join(dir, f), 'utf8').endsWith(KEPT)),
  );
}

export interface FoldSink {
  /** Inserts lines into datapoint_minutes as one insert with `token` as its deduplication token; resolves once committed. */
  insert(text: string, minTime: number | null, token: string): Promise<void>;
}

export interface DatapointFoldWriter {
  /** Appends the chunks' lines to the journal and folds them; resolves once appended. Takes the chunks over. */
  write(chunks: readonly StagedDatapoints[]): Promise<void>;
  /** Writes every row held; resolves once committed. */
  flush(): Promise<void>;
  /** At open, before any write: inserts what an earlier process left (see above). */
  recover(): Promise<void>;
  /** Starts the tick that writes closed rows (0: none, only flushes). */
  start(tickMs: number): void;
  /** Stops the tick. */
  stop(): void;
  /** Rows held (for tests and the stats). */
  readonly size: number;
}

export function openDatapointFoldWriter(
  dir: string,
  sink: FoldSink,
  maxRows: number,
  now: () => number = Date.now,
): DatapointFoldWriter {
  mkdirSync(dir, { recursive: true });
  const checkpoints = readdirSync(dir)
    .map((f) => CHECKPOINT.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ cut: Number(m[1]), token: m[2], file: join(dir, m[0]) }))
    .sort((a, b) => a.cut - b.cut);
  const last = checkpoints.at(-1) ?? null;
  const journal = openSpanMetricJournal(dir, last ? last.cut + 1 : 0);
  // Files of earlier checkpoints (and segments they cover) still to remove.
  let oldCheckpoints = checkpoints.map((c) => c.file);

  const fold = new DatapointFold();
  let tick = 0;
  let appended = 0;
  // One lock for an append with its fold and for a cut with taking the rows, so the rows a
  // checkpoint holds are exactly the lines of the segments up to its cut.
  let lockTail: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T> | T): Promise<T> => {
    const result = lockTail.then(f);
    lockTail = result.catch(() => undefined);
    return result;
  };

  const checkpoint = async (pick: (time: number, rowTick: number) => boolean) => {
    const taken = await locked(() => {
      const out = fold.take(pick);
      if (out.rows === 0) return null;
      appended = 0;
      return { out, kept: fold.lines(), cut: journal.cut() };
    });
    if (taken === null) return;
    const token = randomUUID();
    const file = join(dir, `checkpoint-${taken.cut}-${token}.tsv`);
    try {
      await writeFile(`${file}.tmp`, taken.out.text + KEPT + taken.kept);
      await rename(`${file}.tmp`, file);
      await Promise.all([journal.drop(taken.cut), ...oldCheckpoints.map((f) => rm(f, { force: true }))]);
      oldCheckpoints = [file];
      await sink.insert(taken.out.text, taken.out.minTime, token);
    } catch (err) {
      // Not committed: the rows wait with the later ones for the next flush, whose checkpoint
      // holds them again and replaces this one.
      await locked(() => fold.add(taken.out.text, tick));
      throw err;
    }
  };
  // One flush at a time; a flush asked for while one runs waits for it (a read after an
  // acknowledgement must see the rows that one took).
  let flushTail: Promise<unknown> = Promise.resolve();
  const serial = (pick: (time: number, rowTick: number) => boolean): Promise<void> => {
    const result = flushTail.then(() => checkpoint(pick));
    flushTail = result.catch(() => undefined);
    return result;
  };
  const flush = () => serial(() => true);
  let timer: NodeJS.Timeout | null = null;

  return {
    get size() {
      return fold.size;
    },
    async write(chunks) {
      try {
        // Chunks that carry their rows as columns (remote write) are folded without parsing their
        // text back, and their bytes are journaled as they are.
        const columns = chunks.every((c) => c.lines && c.data);
        const texts = columns
          ? []
          : await Promise.all(
              chunks.map(async (c) =>
                c.file
                  ? readFile(c.file, 'utf8')
                  : Buffer.from(c.data!.buffer, c.data!.byteOffset, c.data!.length).toString(),
              ),
            );
        const data: string | Uint8Array = columns
          ? chunks.length === 1
            ? chunks[0].data!
            : Buffer.concat(chunks.map((c) => c.data!))
          : texts.length === 1
            ? texts[0]
            : texts.join('');
        const size = await locked(async () => {
          await journal.append(data);
          if (columns) for (const c of chunks) fold.addLines(c.lines!, tick);
          else fold.add(data as string, tick);
          appended += data.length;
          return fold.size;
        });
        if (size >= maxRows || appended >= JOURNAL_MAX_BYTES) await flush();
      } finally {
        await unstageDatapoints(chunks);
      }
    },
    flush,
    async recover() {
      if (last) {
        const text = await readFile(last.file, 'utf8');
        const at = text.indexOf(KEPT);
        // A checkpoint is renamed into place whole, so its mark is there.
        await sink.insert(text.slice(0, at), null, last.token);
        fold.add(text.slice(at + KEPT.length), tick);
      }
      for (const file of journal.leftovers()) {
        const n = Number(/segment-(\d+)\.tsv$/.exec(file)![1]);
        if (last && n <= last.cut) oldCheckpoints.push(file);
        else {
          fold.add(completeBatches(await readFile(file, 'utf8')), tick);
          oldCheckpoints.push(file);
        }
      }
      if (fold.size > 0) await flush();
      else await Promise.all(oldCheckpoints.map((f) => rm(f, { force: true })));
    },
    start(tickMs) {
      if (tickMs <= 0) return;
      timer = setInterval(() => {
        const t = ++tick;
        const closedBefore = Math.floor(now() / 1000) - 60 - FOLD_LAG_S;
        // Rows of closed minutes that no line touched during the whole last tick.
        serial((time, rowTick) => time <= closedBefore && rowTick < t - 1).catch((err: unknown) =>
          console.error(`datapoint fold: ${(err as Error).message}`),
        );
      }, tickMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
