import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatapointFold } from './datapointFold';
import { unstageDatapoints, type StagedDatapoints } from './datapointStaging';
import { encodeRecords, linesText, recordSegment, segmentLines } from './datapointRecords';
import { rowBinaryLines } from './datapointRowBinary';
import { openSpanMetricJournal } from './spanMetricJournal';

/**
 * The embedded store's way in for metrics ingest's datapoint lines (docs/decisions/metrics-ingest-fold.md):
 * a batch's lines are appended to a journal (the segments of spanMetricJournal.ts) and folded in
 * memory per series and minute (DatapointFold); the batch is acknowledged once appended. A row goes
 * to `datapoint_minutes` once its minute has closed (its end plus FOLD_LAG_S past) and no line
 * touched it for a whole tick (a row older than the rollups' watermark: also once no line that old
 * came during the last tick, so a backfill's late rows go together), before any read of the datapoint tables (the store's `query`
 * flushes every row first), at close, and every row at once when the fold holds `maxRows` rows or
 * the segments kept hold JOURNAL_MAX_BYTES (or MAX_CHECKPOINTS checkpoints are kept).
 * A sample for a minute already written makes another row of that minute, which the table's
 * merges and every read fold.
 *
 * A write is a checkpoint holding only the rows it writes: the journal is cut and the rows
 * written (W) go into `checkpoint-<cut>-<uuid>.rowbinary` (RowBinary, datapointRowBinary.ts;
 * written to a temporary name and renamed, so it is there whole or not at all), which is then
 * inserted with the uuid as its
 * `insert_deduplication_token` (datapoint_minutes keeps the tokens of its last inserts:
 * migration 19). The rows kept are not written again: their lines stay in the segments. So a line
 * of segment s is in a written row exactly when a checkpoint of cut >= s wrote its row's key
 * (at that checkpoint every line of the key in segments up to its cut had been folded). Once
 * committed, the segments before the first segment of every row still held are removed, and the
 * checkpoints whose cut is before it. Opening inserts every checkpoint left again with its token
 * (the table drops what had committed), folds the lines of the segments left but those whose key
 * a checkpoint of a later or equal cut wrote, and writes them all. So a kill -9 at any moment
 * loses no acknowledged line and counts none twice.
 */

/** How long after a minute's end its rows wait for late samples (Prometheus' remote write sends within ~5 s, OTel SDKs at the end of an export interval). */
export const FOLD_LAG_S = 20;
/** How often closed rows are written. */
export const FOLD_TICK_MS = 1000;
/** Rows (series x open minutes) the fold holds before it writes them all (config `metrics.fold_max_rows`). */
export const FOLD_MAX_ROWS = 200_000;
/** Bytes of the segments kept past which every row is written (their segments are then removed). */
const JOURNAL_MAX_BYTES = 256 * 1024 * 1024;
/** Checkpoints kept (their keys tell which lines of the kept segments are written) past which every row is written. */
const MAX_CHECKPOINTS = 100;

/** A checkpoint's file: its rows as RowBinary (`.rowbinary`, since session 32) or as text (`.tsv`, an earlier process's). */
const CHECKPOINT = /^checkpoint-(\d+)-([0-9a-f-]{36})\.(tsv|rowbinary)$/;
/**
 * Between the written rows and the kept ones of a checkpoint made before checkpoints held only
 * the written rows (it covers every line of the segments up to its cut); read at a start.
 */
const KEPT = '#kept\n';
const SEGMENT_NUMBER = /segment-(\d+)\.tsv$/;

/** Whether a fold journal directory holds datapoints a start would still insert (segments or checkpoints). */
export function foldJournalPending(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((f) => /^segment-\d+\.tsv$/.test(f) || CHECKPOINT.test(f));
}

export interface FoldSink {
  /** Inserts lines into datapoint_minutes as one insert with `token` as its deduplication token; resolves once committed. */
  insert(text: string, minTime: number | null, token: string): Promise<void>;
  /** The same for the rows of a file (read, not removed): RowBinary when its name ends in `.rowbinary`, else TSV. */
  insertFile(file: string, minTime: number | null, token: string): Promise<void>;
  /**
   * The rollups' watermark (Unix seconds; null: none): an insert of rows older than it also
   * inserts them into the rollups, so the tick holds such rows while more of them come.
   */
  watermark?(): number | null;
}

interface Checkpoint {
  cut: number;
  token: string;
  file: string;
  minTime: number | null;
  /** The earliest segment of the rows the fold kept when it was taken. */
  keptMinSeg: number;
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
  const found: Checkpoint[] = readdirSync(dir)
    .map((f) => CHECKPOINT.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ cut: Number(m[1]), token: m[2], file: join(dir, m[0]), minTime: null, keptMinSeg: -1 }))
    .sort((a, b) => a.cut - b.cut);
  const journal = openSpanMetricJournal(dir, found.length > 0 ? found[found.length - 1].cut + 1 : 0);

  const fold = new DatapointFold();
  // The current segment's number for the records (datapointRecords.ts: unique in the process).
  let recordsOf = -1;
  let records = 0;
  let tick = 0;
  // The last tick during which lines older than the rollups' watermark came (a backfill).
  let lateTick = -2;
  // Committed checkpoints whose keys may still cover lines of the kept segments.
  let kept: Checkpoint[] = [];
  // A checkpoint renamed into place whose insert failed: inserted again (same token) before the next one.
  let pending: Checkpoint | null = null;
  // Bytes appended to each segment of this process not yet removed.
  const segmentBytes = new Map<number, number>();
  let keptBytes = 0;
  // One lock for an append with its fold and for a cut with taking the rows, so the rows a
  // checkpoint holds are exactly the lines of their keys in the segments up to its cut.
  let lockTail: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T> | T): Promise<T> => {
    const result = lockTail.then(f);
    lockTail = result.catch(() => undefined);
    return result;
  };

  /** After `c` committed: removes the segments and checkpoints no line held or kept needs. */
  const settle = async (c: Checkpoint) => {
    kept.push(c);
    const before = Math.min(c.keptMinSeg, c.cut + 1);
    const gone = kept.filter((k) => k.cut < c.keptMinSeg);
    kept = kept.filter((k) => k.cut >= c.keptMinSeg);
    for (const [n, bytes] of segmentBytes)
      if (n < before) {
        segmentBytes.delete(n);
        keptBytes -= bytes;
      }
    // The segments first: a checkpoint is needed as long as a segment whose lines it wrote is there.
    await journal.drop(before - 1);
    await Promise.all(gone.map((k) => rm(k.file, { force: true })));
  };

  /** `durable`: run once the checkpoint's file is in place, before its insert. */
  const checkpoint = async (pick: (time: number, rowTick: number) => boolean, durable?: () => Promise<void>) => {
    if (pending) {
      const p = pending;
      await sink.insertFile(p.file, p.minTime, p.token);
      pending = null;
      await settle(p);
    }
    const taken = await locked(() => {
      const out = fold.take(pick);
      return out.rows === 0 ? null : { out, cut: journal.cut() };
    });
    if (taken === null) return;
    const token = randomUUID();
    const { out, cut } = taken;
    const c: Checkpoint = {
      cut,
      token,
      file: join(dir, `checkpoint-${cut}-${token}.rowbinary`),
      minTime: out.minTime,
      keptMinSeg: out.keptMinSeg,
    };
    try {
      await writeFile(`${c.file}.tmp`, out.data);
      await rename(`${c.file}.tmp`, c.file);
    } catch (err) {
      // No checkpoint: the rows wait with the later ones (their segments stay) for the next one.
      await locked(() => fold.add(rowBinaryLines(out.data), tick, out.takenMinSeg));
      throw err;
    }
    await durable?.();
    // Not committed: inserted again with the same token by the next checkpoint or the next start.
    pending = c;
    await sink.insertFile(c.file, c.minTime, token);
    pending = null;
    await settle(c);
  };
  // One flush at a time; a flush asked for while one runs waits for it (a read after an
  // acknowledgement must see the rows that one took).
  let flushTail: Promise<unknown> = Promise.resolve();
  const serial = (pick: (time: number, rowTick: number) => boolean, durable?: () => Promise<void>): Promise<void> => {
    const result = flushTail.then(() => checkpoint(pick, durable));
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
        // Chunks that carry their rows as columns (remote write) are folded without parsing text,
        // and journaled as records (datapointRecords.ts); others as their text.
        const columns = chunks.every((c) => c.lines);
        const texts = columns
          ? []
          : await Promise.all(
              chunks.map(async (c) =>
                c.file
                  ? readFile(c.file, 'utf8')
                  : c.lines
                    ? linesText(c.lines)
                    : Buffer.from(c.data!.buffer, c.data!.byteOffset, c.data!.length).toString(),
              ),
            );
        const text = texts.length === 1 ? texts[0] : texts.join('');
        const watermark = sink.watermark?.() ?? null;
        if (watermark !== null && chunks.some((c) => c.minTime !== undefined && c.minTime < watermark)) lateTick = tick;
        const size = await locked(async () => {
          const seg = journal.segment;
          if (recordsOf !== seg) {
            recordsOf = seg;
            records = recordSegment();
          }
          const data = columns
            ? encodeRecords(
                chunks.map((c) => c.lines!),
                records,
              )
            : text;
          await journal.append(data);
          if (columns) for (const c of chunks) fold.addLines(c.lines!, tick, seg);
          else fold.add(text, tick, seg);
          segmentBytes.set(seg, (segmentBytes.get(seg) ?? 0) + data.length);
          keptBytes += data.length;
          return fold.size;
        });
        if (size >= maxRows || keptBytes >= JOURNAL_MAX_BYTES || kept.length >= MAX_CHECKPOINTS) await flush();
      } finally {
        await unstageDatapoints(chunks);
      }
    },
    flush,
    async recover() {
      // Every checkpoint left again with its token (dropped by the table if committed); for each
      // key written, the latest cut that wrote it. A checkpoint of the earlier format covers every
      // line of the segments up to its cut: its kept rows are folded, those segments not read.
      const written = new Map<string, number>();
      let coveredTo = -1;
      for (const c of found) {
        const text = c.file.endsWith('.tsv') ? await readFile(c.file, 'utf8') : rowBinaryLines(await readFile(c.file));
        const at = c.file.endsWith('.tsv') ? text.indexOf(KEPT) : -1;
        if (at < 0) await sink.insertFile(c.file, null, c.token);
        else {
          await sink.insert(text.slice(0, at), null, c.token);
          fold.add(text.slice(at + KEPT.length), tick, c.cut);
          coveredTo = c.cut;
        }
        const w = at < 0 ? text : text.slice(0, at);
        for (let start = 0; start < w.length;) {
          let end = w.indexOf('\n', start);
          if (end < 0) end = w.length;
          let tab = start;
          for (let i = 0; i < 5 && tab >= 0; i++) tab = w.indexOf('\t', tab) + 1;
          if (tab > start && tab <= end) written.set(w.slice(start, tab), c.cut);
          start = end + 1;
        }
      }
      const leftovers = journal.leftovers();
      for (const file of leftovers) {
        const n = Number(SEGMENT_NUMBER.exec(file)![1]);
        if (n <= coveredTo) continue;
        fold.add(segmentLines(await readFile(file)), tick, n, (head) => (written.get(head) ?? -1) >= n);
      }
      // Removed once what they held is committed (above) or in the new checkpoint: the segments
      // first, since a checkpoint's keys say which of their lines are written.
      const remove = async () => {
        await Promise.all(leftovers.map((f) => rm(f, { force: true })));
        await Promise.all(found.map((c) => rm(c.file, { force: true })));
      };
      if (fold.size > 0) await serial(() => true, remove);
      else await remove();
    },
    start(tickMs) {
      if (tickMs <= 0) return;
      timer = setInterval(() => {
        const t = ++tick;
        const closedBefore = Math.floor(now() / 1000) - 60 - FOLD_LAG_S;
        // Rows older than the watermark wait while more such lines come (a backfill): written
        // together, each series has one row per rollup bucket instead of one per minute, until
        // they stop or the fold is full.
        const watermark = lateTick >= t - 1 ? (sink.watermark?.() ?? null) : null;
        // Rows of closed minutes that no line touched during the whole last tick.
        serial(
          (time, rowTick) => time <= closedBefore && rowTick < t - 1 && (watermark === null || time >= watermark),
        ).catch((err: unknown) => console.error(`datapoint fold: ${(err as Error).message}`));
      }, tickMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
