import { mkdirSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join as joinPath, resolve } from 'node:path';
import type * as Chdb from 'chdb';
import type { SpanRow } from './spanRow';
import type { SpanMetricsModel } from './spanMetricRows';
import { compile, ident, join, sql, param, type SqlFragment } from '../sql';
import { applyMigrations, VIEW_NAMES_SQL } from './migrate';
import { createDatapointRollups, dataFile, fileSource, ROLLUP_INTERVAL_MS } from './datapointRollups';
import { completeBatches, openSpanMetricJournal } from './spanMetricJournal';
import { FOLD_MAX_ROWS, FOLD_TICK_MS, openDatapointFoldWriter } from './datapointFoldWriter';
import { DATAPOINT_TSV_COLUMNS, SPAN_METRICS_FLUSH_MS, withSpanMetrics, type SpanMetricSink } from './spanMetricWriter';
import { encodeSpans, SPANS_DATA_COLUMNS, SPANS_INDEX_COLUMNS } from './spanRowEncoding';
import { DATAPOINT_COLUMNS } from './datapointStaging';
import {
  resetStagingDir,
  STAGED_SUFFIX,
  STAGED_TABLES,
  stagedFile,
  stageSpans,
  unstageSpans,
  type StagedSpans,
} from './spanStaging';
import { StoreQueryError, type TelemetryStore } from './telemetryStore';

export interface ChdbStoreOptions {
  path: string;
  ttl: { spansDays: number; metricsDays: number };
  /** What writes metrics_from_spans (metricsFromSpans' `spanMetricsModel`); absent or null: none. */
  spanMetrics?: SpanMetricsModel | null;
  maxMemoryUsage: number;
  maxThreads: number;
  /** How often the datapoint rollups are brought up to date (datapointRollups.ts); 0: only by rollUp() (tests). */
  rollupIntervalMs?: number;
  /** Test hook: called between a rollup window's inserts and its watermark record. */
  afterRollupInsert?: () => void;
  /** Rows the datapoint fold holds before it writes them all (config `metrics.fold_max_rows`). */
  foldMaxRows?: number;
  /** How often the fold writes its closed rows (datapointFoldWriter.ts); 0: only before reads, when full and at close. */
  foldTickMs?: number;
  /** How long metrics from spans wait in memory before their insert (spanMetricWriter.ts); 0: only before reads and at close. */
  spanMetricsFlushMs?: number;
}

/**
 * Embedded chDB. One session per data directory per process (chDB binds the path). Only the
 * async calls are used: the sync ones block the event loop for the whole query.
 */
export function openChdbStore(opts: ChdbStoreOptions): TelemetryStore {
  mkdirSync(opts.path, { recursive: true });
  // Loaded by the embedded store only (~0.4 CPU-s: the engine's library), not by a server on ClickHouse.
  const { Session } = createRequire(import.meta.url)('chdb') as typeof Chdb;
  const session = new Session(opts.path, {
    connectionArgs: [
      '--output_format_json_quote_64bit_integers=1',
      `--max_memory_usage=${opts.maxMemoryUsage}`,
      `--max_threads=${opts.maxThreads}`,
      // datapoint_minutes keeps the tokens of its last inserts (migration 17) for the fold's
      // checkpoints; without a token the engine would drop a block equal to a recent one.
      '--insert_deduplicate=0',
    ],
  });

  const runText = async (q: SqlFragment, format: 'JSONEachRow' | 'TabSeparatedRaw'): Promise<string> => {
    const { text, params } = compile(q);
    try {
      const res = Object.keys(params).length
        ? await session.queryBindAsync(text, params, { format })
        : await session.queryAsync(text, { format });
      return res.text();
    } catch (err) {
      throw new StoreQueryError(cleanEngineMessage((err as Error).message), text);
    }
  };
  const run = async <T>(q: SqlFragment): Promise<T[]> => parseJsonEachRow<T>(await runText(q, 'JSONEachRow'));

  // A batch reaches the engine as its staged files, moved into a directory of their own that one
  // INSERT ... SELECT FROM file('<dir>/*') per table reads: the engine parses files in about half
  // the time and CPU it takes for the same bytes sent inline after INSERT ... FORMAT
  // (bench/ingest/engineCost.ts), and reads several files in parallel.
  // Absolute: file() must not resolve a relative path against anything but our data directory.
  const stagingDir = resolve(opts.path, 'ingest-staging');
  if (/[*?{]/.test(stagingDir)) {
    // file() would read them as glob characters.
    throw new Error(
      `the embedded store's path must not contain *, ? or { (it is ${JSON.stringify(opts.path)}): choose another data_dir`,
    );
  }
  resetStagingDir(stagingDir);
  let batches = 0;
  // The 15-minute and hourly rollups, kept by the application (datapointRollups.ts): every
  // datapoint write goes through rollups.write, which also rolls up rows older than the watermark.
  const rollups = createDatapointRollups(run, {
    afterWindowInsert: opts.afterRollupInsert,
    lateStage: joinPath(stagingDir, `late-rollup-${process.pid}.native`),
  });
  const insertFiles = async (table: 'spans_data' | 'spans_index', columns: readonly string[], files: string) => {
    await run(sql`INSERT INTO ${ident(table)} (${join(
      columns.map((c) => sql`${ident(c)}`),
      ', ',
    )})
      SELECT * FROM file(${param.string(files)}, 'TSV')
      SETTINGS use_structure_from_insertion_table_in_table_functions = 1`);
  };

  const insertStagedSpans = async (chunks: readonly StagedSpans[]) => {
    const batchDir = joinPath(stagingDir, `batch-${batches++}`);
    try {
      await mkdir(batchDir);
      const inMemory = chunks.flatMap((c) => (c.bytes ? [c.bytes] : []));
      await Promise.all(
        STAGED_TABLES.flatMap((t) => [
          ...chunks.flatMap(({ file }) =>
            file ? [rename(stagedFile(file, t), joinPath(batchDir, file.name + STAGED_SUFFIX[t]))] : [],
          ),
          // Small chunks, one file for all (a staged chunk's name is a UUID, so no clash).
          ...(inMemory.length > 0
            ? [writeFile(joinPath(batchDir, `small${STAGED_SUFFIX[t]}`), Buffer.concat(inMemory.map((b) => b[t])))]
            : []),
        ]),
      );
      // One after the other: chDB runs one query at a time per session, so starting both at once
      // gains nothing. spans_data goes first, so a span that a list shows (spans_index) always has
      // its page (spans_data) to open. The batch is acknowledged only when both have committed.
      if (chunks.some((c) => c.dataBytes > 0))
        await insertFiles('spans_data', SPANS_DATA_COLUMNS, joinPath(batchDir, `*${STAGED_SUFFIX.data}`));
      if (chunks.some((c) => c.indexBytes > 0))
        await insertFiles('spans_index', SPANS_INDEX_COLUMNS, joinPath(batchDir, `*${STAGED_SUFFIX.index}`));
    } finally {
      await Promise.all([rm(batchDir, { recursive: true, force: true }), unstageSpans(chunks)]);
    }
  };

  // Datapoint lines (metrics ingest's, folded: below; metrics from spans') through a staging file
  // read by INSERT ... SELECT FROM file() (JSONEachRow cost about five times the CPU per datapoint
  // row, bench/ingest: ~39 against ~8 µs). optimize_on_insert = 0: rows of one (series, minute)
  // in the block are not folded by the insert, merges fold them as rows of different inserts, and
  // queries aggregate either way; it takes about a fifth off the insert's CPU
  // (bench/metrics/engineCost.ts). `token`: the insert's
  // deduplication token (the datapoint fold's checkpoints, datapointFoldWriter.ts); every other
  // insert runs with insert_deduplicate = 0, the session's default.
  let lineFiles = 0;
  const insertLinesFile = async (
    columns: readonly string[],
    file: string,
    minTime: number | null,
    token: string | null,
  ) => {
    if (token !== null && !/^[0-9a-f-]{36}$/.test(token)) throw new Error(`not a deduplication token: ${token}`);
    const dedup: SqlFragment = {
      kind: 'fragment',
      parts: [token === null ? '' : `, insert_deduplicate = 1, insert_deduplication_token = '${token}'`],
      values: [],
    };
    // The fold's checkpoints are RowBinary (datapointRowBinary.ts), other lines TSV.
    const format = file.endsWith('.rowbinary') ? 'RowBinary' : 'TSV';
    const annotated = columns.includes('annotations');
    const source = format === 'TSV' ? sql`file(${param.string(file)}, 'TSV')` : dataFile(file, format, annotated);
    await rollups.write(
      () =>
        run(sql`INSERT INTO datapoint_minutes (${join(
          columns.map((c) => sql`${ident(c)}`),
          ', ',
        )}) SELECT * FROM ${source}
          SETTINGS use_structure_from_insertion_table_in_table_functions = 1, optimize_on_insert = 0, max_insert_threads = 1${dedup}`),
      minTime,
      () => fileSource(file, format, annotated),
    );
  };
  const insertLines = async (
    columns: readonly string[],
    text: string,
    minTime: number | null,
    token: string | null,
  ) => {
    const file = joinPath(stagingDir, `lines-${process.pid}-${lineFiles++}.tsv`);
    try {
      await writeFile(file, text);
      await insertLinesFile(columns, file, minTime, token);
    } finally {
      await rm(file, { force: true });
    }
  };
  const insertTsv: SpanMetricSink['insertTsv'] = (_table, columns, text, minTime) =>
    insertLines(columns, text, minTime, null);
  // Metrics ingest's datapoints, folded per series and minute before the engine, journaled
  // (datapointFoldWriter.ts; a remote ClickHouse inserts each batch as it comes).
  const fold = openDatapointFoldWriter(
    resolve(opts.path, 'datapoint-journal'),
    {
      insert: (text, minTime, token) =>
        text === '' ? Promise.resolve() : insertLines(DATAPOINT_COLUMNS, text, minTime, token),
      insertFile: (file, minTime, token) => insertLinesFile(DATAPOINT_COLUMNS, file, minTime, token),
      watermark: () => {
        const w = rollups.watermark();
        return w === null ? null : w.getTime() / 1000;
      },
    },
    opts.foldMaxRows ?? FOLD_MAX_ROWS,
  );
  // A read of the datapoint tables first writes the rows held, and waits for a flush under way
  // (whose rows have left the fold but may not be committed yet).
  const flushBeforeRead = async (q: SqlFragment) => {
    if (compile(q).text.includes('datapoint_')) await fold.flush();
  };
  // Their journal (spanMetricJournal.ts): outside the staging directory, which opening empties.
  const journal = openSpanMetricJournal(resolve(opts.path, 'span-metrics-journal'));
  /** Segments a killed process left: their whole batches inserted (at start, before any ingest). */
  const replayJournal = async () => {
    for (const file of journal.leftovers()) {
      const text = completeBatches(await readFile(file, 'utf8'));
      if (text !== '') await insertTsv('datapoint_minutes', DATAPOINT_TSV_COLUMNS, text, null);
      await rm(file, { force: true });
    }
  };

  // Plain JSON rows (tests, tools): late datapoints are rolled up from a file of the same rows.
  let jsonFiles = 0;
  const insertJson = async (table: string, rows: readonly object[]) => {
    const values = jsonEachRow(rows);
    if (table !== 'datapoint_minutes') {
      await session.insert({ table, values, format: 'JSONEachRow' });
      return;
    }
    const file = joinPath(stagingDir, `rows-${process.pid}-${jsonFiles++}.json`);
    const times = rows.map((r) => Number((r as { time?: unknown }).time));
    try {
      await writeFile(file, values);
      await rollups.write(
        () => session.insert({ table, values, format: 'JSONEachRow' }),
        times.every(Number.isFinite) ? Math.min(...times) : null,
        () => fileSource(file, 'JSONEachRow', true),
      );
    } finally {
      await rm(file, { force: true });
    }
  };

  return withSpanMetrics(
    opts.spanMetrics,
    {
      kind: 'chdb',
      async migrate() {
        await applyMigrations(
          {
            exec: async (statement) => {
              await session.queryAsync(statement);
            },
            appliedVersions: async () =>
              (await run<{ version: number }>(sql`SELECT version FROM lantern_migrations`)).map((r) =>
                Number(r.version),
              ),
            viewNames: async () => (await run<{ name: string }>(VIEW_NAMES_SQL)).map((r) => r.name),
            record: async (version, name) => {
              const { text, params } = compile(
                sql`INSERT INTO lantern_migrations (version, name) VALUES (${param.uint32(version)}, ${param.string(name)})`,
              );
              await session.queryBindAsync(text, params);
            },
          },
          opts.ttl,
          '',
          'application',
        );
        await rollups.load();
        await replayJournal();
        await fold.recover();
        fold.start(opts.foldTickMs ?? FOLD_TICK_MS);
        rollups.start(opts.rollupIntervalMs ?? ROLLUP_INTERVAL_MS);
      },
      insertSpans: async (rows: readonly SpanRow[]) => {
        if (rows.length > 0) await insertStagedSpans([stageSpans(stagingDir, encodeSpans(rows))]);
      },
      stagingDir,
      insertStagedSpans,
      insertStagedDatapoints: (chunks) => fold.write(chunks),
      async insertRows(table, rows) {
        if (rows.length > 0) await insertJson(table, rows);
      },
      command: async (q: SqlFragment) => {
        await runText(q, 'TabSeparatedRaw');
      },
      async query<T>(q: SqlFragment) {
        await flushBeforeRead(q);
        return run<T>(q);
      },
      async queryText(q: SqlFragment) {
        await flushBeforeRead(q);
        return runText(q, 'TabSeparatedRaw');
      },
      rollupWatermark: () => rollups.watermark(),
      readRollups: (read) => rollups.read(read),
      rollUp: (now) => rollups.rollUp(now),
      rollUpAll: () => rollups.rollUpAll(),
      async close() {
        fold.stop();
        try {
          await fold.flush();
        } finally {
          await rollups.stop();
          session.close();
        }
      },
    },
    insertTsv,
    journal,
    opts.spanMetricsFlushMs ?? SPAN_METRICS_FLUSH_MS,
  );
}

export function jsonEachRow(rows: readonly object[]): Buffer {
  return Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export function parseJsonEachRow<T>(text: string): T[] {
  const out: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) out.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return out;
}

/** Engine messages carry a stack and build info after the first line; users need the first line. */
export function cleanEngineMessage(message: string): string {
  return message
    .split('\n')[0]
    .replace(/^Code: \d+\. DB::Exception: /, '')
    .replace(/\. \([A-Z_]+\)$/, '');
}
