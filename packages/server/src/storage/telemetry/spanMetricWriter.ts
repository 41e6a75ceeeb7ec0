import { parseAliased, type SpanMetricDefinition } from '../../config';
import { DATAPOINT_COLUMNS } from './datapointStaging';
import type { SpanRow } from './spanRow';
import { compile, type SqlFragment } from '../sql';
import type { SpanMetricJournal } from './spanMetricJournal';
import {
  compileSpanMetrics,
  foldSpanMetricPoints,
  mergeSpanMetricPoints,
  spanMetricPoints,
  type CompiledSpanMetrics,
  type SpanMetricPoint,
} from './spanMetricPoints';
import { quoted, tsv } from './spanRowEncoding';
import { unstageSpans, type StagedSpans } from './spanStaging';
import type { TelemetryStore } from './telemetryStore';

/**
 * Writes the metrics derived from spans (spanMetricPoints.ts) with the spans they come from: a
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

const finite = (x: number): number => (Number.isFinite(x) ? x : 0);

export interface SpanMetricWriter {
  /**
   * Folds the lists (one per request) and inserts the rows, or with a journal appends them to it;
   * resolves once committed (journaled).
   */
  write(lists: readonly (readonly SpanMetricPoint[] | null | undefined)[]): Promise<void>;
  /** Inserts the points waiting in memory (none without a journal); resolves once committed. */
  flush(): Promise<void>;
  /** Stops the flush timer. */
  stop(): void;
}

/**
 * Where the writer puts its rows: TabSeparated lines of DATAPOINT_TSV_COLUMNS, or JSON rows.
 * `minTime`: the earliest row's time (Unix seconds; null when not known, as for a journal left by
 * a kill), so the embedded store knows whether the batch has rows its rollups already passed.
 */
export interface SpanMetricSink {
  insertTsv?(
    table: 'datapoint_minutes',
    columns: readonly string[],
    text: string,
    minTime: number | null,
  ): Promise<void>;
  insertRows: TelemetryStore['insertRows'];
  /** With insertTsv: points wait in memory and their lines here (see above). */
  journal?: SpanMetricJournal;
}

/** The columns of a datapoint line, in order: those of the OTLP path's lines, then `annotations`. */
export const DATAPOINT_TSV_COLUMNS: readonly string[] = [...DATAPOINT_COLUMNS, 'annotations'];

export function createSpanMetricWriter(
  metrics: CompiledSpanMetrics,
  sink: SpanMetricSink,
  now: () => number = Date.now,
  flushMs = SPAN_METRICS_FLUSH_MS,
): SpanMetricWriter {
  const { defs } = metrics;
  const keys = defs.map((d) => d.attrs.map((a) => parseAliased(a).alias));
  // The constant parts of each definition's lines, escaped once.
  const names = defs.map((d) => tsv(d.name));
  const keysText = keys.map((k) => `[${k.map(quoted).join(',')}]`);
  const catalogued = new Map<string, number>();
  const lines = (points: Iterable<SpanMetricPoint>) => {
    let text = '';
    let minTime = Infinity;
    for (const p of points) {
      if (p.time < minTime) minTime = p.time;
      const d = defs[p.def];
      text +=
        `${p.project}\t${names[p.def]}\t${p.time}\t${p.hash}\t${d.instrument}\t` +
        `${finite(p.min)}\t${finite(p.max)}\t${finite(p.sum)}\t${p.count}\t0\t` +
        `([${p.buckets[0].join(',')}],[${p.buckets[1].join(',')}])\t${keysText[p.def]}\t` +
        `[${p.values.map(quoted).join(',')}]\t${tsv(p.annotations)}\n`;
    }
    return { text, minTime };
  };

  // The journal's state: points folded since the last cut, and one lock for an append with its
  // fold and for a cut with taking the points, so the points taken are those of the cut segments.
  const { journal } = sink;
  let pending = new Map<string, SpanMetricPoint>();
  let lockTail: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T> | T): Promise<T> => {
    const result = lockTail.then(f);
    lockTail = result.catch(() => undefined);
    return result;
  };
  const flushOnce = async () => {
    if (!journal || !sink.insertTsv) return;
    const taken = await locked(() => {
      if (pending.size === 0) return null;
      const points = pending;
      pending = new Map();
      return { points, cut: journal.cut() };
    });
    if (taken === null) return;
    const { text, minTime } = lines(taken.points.values());
    try {
      await sink.insertTsv('datapoint_minutes', DATAPOINT_TSV_COLUMNS, text, minTime);
    } catch (err) {
      // Still only in the journal: back with the points of later batches, for the next flush,
      // which drops these segments with its own.
      await locked(() => foldSpanMetricPoints(pending, [...taken.points.values()]));
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

  return {
    flush,
    stop: () => {
      if (timer) clearInterval(timer);
    },
    async write(lists) {
      const points = mergeSpanMetricPoints(lists.map((l) => l ?? null));
      if (points.length === 0) return;
      const t = now();
      const catalog: object[] = [];
      const marks = new Set<string>();
      for (const p of points) {
        const key = `${p.project}\u0000${p.def}`;
        if (marks.has(key) || t - (catalogued.get(key) ?? -Infinity) < CATALOG_REFRESH_MS) continue;
        const d = defs[p.def];
        const ts = Math.floor(t / 1000);
        catalog.push({
          project_id: p.project,
          name: d.name,
          description: d.description,
          unit: d.unit,
          instrument: d.instrument,
          attr_keys: keys[p.def],
          created_at: ts,
          updated_at: ts,
        });
        marks.add(key);
      }
      if (catalog.length > 0) await sink.insertRows('metrics_catalog', catalog);
      if (journal && sink.insertTsv) {
        const { text } = lines(points);
        const size = await locked(async () => {
          await journal.append(text);
          foldSpanMetricPoints(pending, points);
          return pending.size;
        });
        if (size >= MAX_PENDING_POINTS) await flush();
      } else if (sink.insertTsv) {
        const { text, minTime } = lines(points);
        await sink.insertTsv('datapoint_minutes', DATAPOINT_TSV_COLUMNS, text, minTime);
      } else {
        await sink.insertRows(
          'datapoint_minutes',
          points.map((p) => {
            const d = defs[p.def];
            return {
              project_id: p.project,
              metric: d.name,
              time: p.time,
              attrs_hash: p.hash,
              instrument: d.instrument,
              min: finite(p.min),
              max: finite(p.max),
              sum: finite(p.sum),
              count: p.count,
              gauge: 0,
              histogram: p.buckets,
              string_keys: keys[p.def],
              string_values: p.values,
              annotations: p.annotations,
            };
          }),
        );
      }
      // Marked only once written, so a failed write writes them again with the next batch.
      if (catalogued.size + marks.size > CATALOG_MAX_ENTRIES) catalogued.clear();
      for (const k of marks) catalogued.set(k, t);
    },
  };
}

/**
 * The store with metrics from spans: `insertStagedSpans` writes the points the chunks carry
 * (computed where they were encoded), `insertSpans` computes them from the rows. Without
 * definitions, the store itself. `insertTsv`: the store's way in for datapoint lines (the
 * embedded store's: a staging file read by `INSERT ... SELECT FROM file()`); else JSON rows.
 */
export function withSpanMetrics(
  defs: readonly SpanMetricDefinition[],
  store: TelemetryStore,
  insertTsv?: SpanMetricSink['insertTsv'],
  journal?: SpanMetricJournal,
  flushMs = SPAN_METRICS_FLUSH_MS,
): TelemetryStore {
  if (defs.length === 0) return store;
  const metrics = compileSpanMetrics(defs);
  const writer = createSpanMetricWriter(
    metrics,
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
      await writer.write([spanMetricPoints(metrics, rows)]);
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
