import { DATAPOINT_COLUMNS } from './datapointStaging';
import type { SpanRow } from './spanRow';
import { compile, type SqlFragment } from '../sql';
import type { SpanMetricJournal } from './spanMetricJournal';
import { DEF, PROJECT, STAT_FIELDS, TIME, type FoldedSpanMetrics, type SpanMetricsModel } from './spanMetricRows';
import { unstageSpans, type StagedSpans } from './spanStaging';
import type { TelemetryStore } from './telemetryStore';

/**
 * Writes the metrics derived from spans (computed by metricsFromSpans/, which hands the store its
 * model when it is opened: spanMetricRows.ts) with the spans they come from: a
 * store wrapped by `withSpanMetrics` inserts a batch's folded points into `datapoint_minutes`
 * (the 15-minute and hourly rollups follow by their views on a remote ClickHouse, by the embedded
 * store's job, datapointRollups.ts), then the spans, and resolves only once
 * both are committed, so an acknowledged span is a stored datapoint. A crash between the two
 * commits leaves datapoints of spans that were not acknowledged: the client retries and that
 * batch's spans are counted twice in the metrics (docs/decisions/metrics-from-spans.md).
 *
 * The catalogue (`metrics_catalog`, what GET /api/v1/metrics lists) is written from memory in the
 * same write: once per project and metric every CATALOG_REFRESH_MS, and again after a restart.
 *
 * With a journal (the embedded store, spanMetricJournal.ts) a batch's points are not inserted by
 * its write: its lines are appended to the journal and its points folded in memory with those of
 * the batches before, and the folded points go into `datapoint_minutes` as one part every
 * SPAN_METRICS_FLUSH_MS, before any read of the datapoint tables and at close. Each insert writes a part
 * whatever its size, and a part per span batch cost the ingest ~20 % of its throughput
 * (docs/benchmarks.md, "Cost of metrics from spans").
 */
const CATALOG_REFRESH_MS = 15 * 60_000;
/**
 * How long folded points wait in memory (and their lines in the journal) at most. Reads flush
 * first, so this only sets how many batches a part folds: a datapoint row costs the engine about
 * what a span row does, and with 1 s the bench's parts held about as many rows as one per batch
 * (its series and minutes barely repeat within a second); the journal holds ~0.5 MB per
 * 4,000-span batch until then.
 */
export const SPAN_METRICS_FLUSH_MS = 10_000;
/** Folded points held before a write flushes them itself (bounds memory under a flood of series). */
const MAX_PENDING_POINTS = 200_000;
const CATALOG_MAX_ENTRIES = 100_000;

export interface SpanMetricWriter {
  /**
   * Writes the points of a batch's requests (one list each): with a journal, appends their lines
   * to it and folds them into the points waiting in memory; else inserts them. Resolves once
   * committed (journaled).
   */
  write(lists: readonly (FoldedSpanMetrics | null | undefined)[]): Promise<void>;
  /** Inserts the points waiting in memory (none without a journal); resolves once committed. */
  flush(): Promise<void>;
  /** Stops the flush timer. */
  stop(): void;
}

/**
 * Where the writer puts its rows: TabSeparated lines of DATAPOINT_TSV_COLUMNS into
 * `datapoint_minutes` (`minTime`: the earliest row's time, Unix seconds; null when not known, as
 * for a journal left by a kill, so the embedded store knows whether the batch has rows its
 * rollups already passed); catalogue rows as JSON.
 */
export interface SpanMetricSink {
  insertTsv(
    table: 'datapoint_minutes',
    columns: readonly string[],
    text: string,
    minTime: number | null,
  ): Promise<void>;
  insertRows: TelemetryStore['insertRows'];
  /** Points wait in memory and their lines here (see above). */
  journal?: SpanMetricJournal;
}

/** The columns of a datapoint line, in order: those of the OTLP path's lines, then `annotations`. */
export const DATAPOINT_TSV_COLUMNS: readonly string[] = [...DATAPOINT_COLUMNS, 'annotations'];

/** The earliest point's time (Unix seconds) of some lists. */
function minTimeOf(lists: readonly FoldedSpanMetrics[]): number {
  let min = Infinity;
  for (const { stats } of lists) for (let s = TIME; s < stats.length; s += STAT_FIELDS) min = Math.min(min, stats[s]);
  return min;
}

export function createSpanMetricWriter(
  model: SpanMetricsModel,
  sink: SpanMetricSink,
  now: () => number = Date.now,
  flushMs = SPAN_METRICS_FLUSH_MS,
): SpanMetricWriter {
  const defs = model.catalog;
  // When each (project, definition) was last catalogued, by project * defs.length + definition.
  const catalogued = new Map<number, number>();

  // The journal's state: points folded since the last cut, and one lock for an append with its
  // fold and for a cut with taking the points, so the points taken are those of the cut segments.
  const { journal } = sink;
  let pending = model.fold();
  let lockTail: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T> | T): Promise<T> => {
    const result = lockTail.then(f);
    lockTail = result.catch(() => undefined);
    return result;
  };
  const flushOnce = async () => {
    if (!journal) return;
    const taken = await locked(() => {
      if (pending.size === 0) return null;
      const fold = pending;
      pending = model.fold();
      return { fold, cut: journal.cut() };
    });
    if (taken === null) return;
    const points = taken.fold.points();
    try {
      await sink.insertTsv('datapoint_minutes', DATAPOINT_TSV_COLUMNS, points.lines, minTimeOf([points]));
    } catch (err) {
      // Still only in the journal: back with the points of later batches, for the next flush,
      // which drops these segments with its own.
      await locked(() => pending.add(points));
      throw err;
    }
    await journal.drop(taken.cut);
  };
  // One flush at a time; a flush asked for while one runs also waits for it (a read after an
  // acknowledgement must see the points that one took).
  let flushTail: Promise<unknown> = Promise.resolve();
  const flush = (): Promise<void> => {
    const result = flushTail.then(flushOnce);
    flushTail = result.catch(() => undefined);
    return result;
  };
  const timer =
    journal && flushMs > 0
      ? setInterval(
          () => void flush().catch((err: unknown) => console.error(`metrics from spans: ${(err as Error).message}`)),
          flushMs,
        )
      : null;
  timer?.unref();

  /** Catalogue rows for the (project, definition) pairs of the lists not written for a while. */
  const catalogRows = (lists: readonly FoldedSpanMetrics[], t: number) => {
    const rows: object[] = [];
    const marks: number[] = [];
    for (const { stats } of lists) {
      for (let s = 0; s < stats.length; s += STAT_FIELDS) {
        const [project, def] = [stats[s + PROJECT], stats[s + DEF]];
        const key = project * defs.length + def;
        if (t - (catalogued.get(key) ?? -Infinity) < CATALOG_REFRESH_MS || marks.includes(key)) continue;
        const d = defs[def];
        const ts = Math.floor(t / 1000);
        rows.push({
          project_id: project,
          name: d.name,
          description: d.description,
          unit: d.unit,
          instrument: d.instrument,
          attr_keys: d.attrKeys,
          created_at: ts,
          updated_at: ts,
        });
        marks.push(key);
      }
    }
    return { rows, marks };
  };

  return {
    flush,
    stop: () => {
      if (timer) clearInterval(timer);
    },
    async write(given) {
      const lists = given.filter((l): l is FoldedSpanMetrics => !!l && l.heads.length > 0);
      if (lists.length === 0) return;
      const t = now();
      const catalog = catalogRows(lists, t);
      if (catalog.rows.length > 0) await sink.insertRows('metrics_catalog', catalog.rows);
      // The requests' lines as they are: a series in two requests makes two rows, which the
      // table folds (a flush folds the journaled points first).
      const text = lists.length === 1 ? lists[0].lines : lists.map((l) => l.lines).join('');
      if (journal) {
        const size = await locked(async () => {
          await journal.append(text);
          for (const l of lists) pending.add(l);
          return pending.size;
        });
        if (size >= MAX_PENDING_POINTS) await flush();
      } else {
        await sink.insertTsv('datapoint_minutes', DATAPOINT_TSV_COLUMNS, text, minTimeOf(lists));
      }
      // Marked only once written, so a failed write writes them again with the next batch.
      if (catalogued.size + catalog.marks.length > CATALOG_MAX_ENTRIES) catalogued.clear();
      for (const k of catalog.marks) catalogued.set(k, t);
    },
  };
}

/**
 * The store with metrics from spans: `insertStagedSpans` writes the points the chunks carry
 * (computed where they were encoded), `insertSpans` computes them from the rows (the model's
 * `points`). Without a model (no definitions), the store itself. `insertTsv`: the store's way in for datapoint lines (the
 * embedded store's: a staging file read by `INSERT ... SELECT FROM file()`; a remote one's: the
 * lines as the body of an `INSERT`).
 */
export function withSpanMetrics(
  model: SpanMetricsModel | null | undefined,
  store: TelemetryStore,
  insertTsv: SpanMetricSink['insertTsv'],
  journal?: SpanMetricJournal,
  flushMs = SPAN_METRICS_FLUSH_MS,
): TelemetryStore {
  if (!model) return store;
  const writer = createSpanMetricWriter(
    model,
    { insertRows: (table, rows) => store.insertRows(table, rows), insertTsv, journal },
    Date.now,
    flushMs,
  );
  // A read of the datapoint tables first inserts the points waiting in memory, so it sees every
  // acknowledged span's point (rollup reads run their queries through query as well).
  const flushBefore = async (q: SqlFragment) => {
    if (journal && compile(q).text.includes('datapoint_')) await writer.flush();
  };
  return {
    ...store,
    async query<T>(q: SqlFragment) {
      await flushBefore(q);
      return store.query<T>(q);
    },
    async queryText(q: SqlFragment) {
      await flushBefore(q);
      return store.queryText(q);
    },
    async close() {
      writer.stop();
      try {
        await writer.flush();
      } finally {
        await store.close();
      }
    },
    async insertSpans(rows: readonly SpanRow[]) {
      if (rows.length === 0) return;
      await writer.write([model.points(rows)]);
      await store.insertSpans(rows);
    },
    async insertStagedSpans(chunks: readonly StagedSpans[]) {
      try {
        await writer.write(chunks.map((c) => c.points));
      } catch (err) {
        await unstageSpans(chunks);
        throw err;
      }
      await store.insertStagedSpans(chunks);
    },
  };
}
