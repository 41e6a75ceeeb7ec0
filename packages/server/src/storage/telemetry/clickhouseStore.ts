import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type * as ClickHouseClient from '@clickhouse/client';
import type { SpanRow } from './spanRow';
import type { SpanMetricsModel } from './spanMetricRows';
import { compile, sql, param, type SqlFragment } from '../sql';
import { cleanEngineMessage } from './chdbStore';
import { applyMigrations, VIEW_NAMES_SQL } from './migrate';
import { withSpanMetrics, type SpanMetricSink } from './spanMetricWriter';
import { encodeSpans, SPANS_DATA_COLUMNS, SPANS_INDEX_COLUMNS } from './spanRowEncoding';
import { DATAPOINT_COLUMNS, unstageDatapoints, type StagedDatapoints } from './datapointStaging';
import { linesText } from './datapointRecords';
import { stagedFile, stageSpans, unstageSpans, type StagedSpans, type StagedTable } from './spanStaging';
import { StoreQueryError, StoreUnavailableError, type TelemetryStore } from './telemetryStore';

const require = createRequire(import.meta.url);

/**
 * A remote ClickHouse server over HTTP. Same SQL and the same TabSeparated encoding as the
 * embedded store; inserts wait for the server to acknowledge the write.
 */
export function openClickHouseStore(opts: {
  url: string;
  /** A cluster name: cluster DDL (cluster.ts), and inserts into Distributed tables acknowledged only once the shards have them. */
  cluster?: string;
  ttl: { spansDays: number; metricsDays: number };
  /** What writes metrics_from_spans (metricsFromSpans' `spanMetricsModel`); absent or null: none. */
  spanMetrics?: SpanMetricsModel | null;
  maxMemoryUsage: number;
  maxThreads: number;
}): TelemetryStore {
  // Loaded when a server uses a remote store (~0.05 CPU-s a start of every embedded one otherwise).
  const { ClickHouseError, ClickHouseLogLevel, createClient } =
    require('@clickhouse/client') as typeof ClickHouseClient;
  const client = createClient({
    url: opts.url,
    // The client's own log printed each failed request as ~20 lines on stderr (above the one line
    // of a failed start); its errors reach the callers, which report them.
    log: { level: ClickHouseLogLevel.OFF },
    clickhouse_settings: {
      output_format_json_quote_64bit_integers: 1,
      max_memory_usage: String(opts.maxMemoryUsage),
      max_threads: opts.maxThreads,
      wait_end_of_query: 1,
      ...(opts.cluster ? { insert_distributed_sync: 1 } : {}),
    },
  });

  const read = async <R>(
    q: SqlFragment,
    format: 'JSONEachRow' | 'TabSeparatedRaw',
    body: (rs: { json<T>(): Promise<T[]>; text(): Promise<string> }) => Promise<R>,
  ): Promise<R> => {
    const { text, params } = compile(q);
    try {
      return await body(await client.query({ query: text, query_params: params, format }));
    } catch (err) {
      // The server's own errors carry its numeric code; anything else is the way there failing.
      if (!(err instanceof ClickHouseError))
        throw new StoreUnavailableError(`ClickHouse is unreachable: ${(err as Error).message}`);
      throw new StoreQueryError(cleanEngineMessage(err.message), text);
    }
  };

  const run = <T>(q: SqlFragment): Promise<T[]> => read(q, 'JSONEachRow', (rs) => rs.json<T>());

  const insertRaw = async (table: string, columns: readonly string[], body: Uint8Array[]) => {
    if (body.every((b) => b.length === 0)) return;
    // exec with values sends the query as a URL parameter and the bytes as the body, untouched.
    // Table and column names are our own constants, never input.
    const query = `INSERT INTO ${table} (${columns.join(', ')}) FORMAT TabSeparated`;
    const res = await client.exec({ query, values: Readable.from([Buffer.concat(body)]) });
    res.stream.resume();
  };

  // Chunks come in memory (stagingDir null below): the bytes go over HTTP anyway.
  const insertStagedSpans = async (chunks: readonly StagedSpans[]) => {
    try {
      const read = (t: StagedTable) =>
        Promise.all(
          chunks.map(({ file, bytes }) => (file ? readFile(stagedFile(file, t)) : Promise.resolve(bytes![t]))),
        );
      const [index, data] = await Promise.all([read('index'), read('data')]);
      // Both at once: a ClickHouse server runs them in parallel (embedded chDB would not; see there).
      // For the moment between the two commits a span may be listed before its page can be read,
      // which the trace page allows for ("it may take up to 30 seconds to process a trace").
      await Promise.all([
        insertRaw('spans_data', SPANS_DATA_COLUMNS, data),
        insertRaw('spans_index', SPANS_INDEX_COLUMNS, index),
      ]);
    } finally {
      await unstageSpans(chunks);
    }
  };

  const insertStagedDatapoints = async (chunks: readonly StagedDatapoints[]) => {
    try {
      const body = await Promise.all(
        chunks.map(({ file, data, lines }) =>
          file ? readFile(file) : Promise.resolve(data ?? Buffer.from(linesText(lines!))),
        ),
      );
      await insertRaw('datapoint_minutes', DATAPOINT_COLUMNS, body);
    } finally {
      await unstageDatapoints(chunks);
    }
  };

  const insertSpanMetricLines: SpanMetricSink['insertTsv'] = (table, columns, text) =>
    insertRaw(table, columns, [Buffer.from(text)]);

  return withSpanMetrics(
    opts.spanMetrics,
    {
      kind: 'clickhouse',
      async migrate() {
        await applyMigrations(
          {
            exec: async (statement) => {
              await client.command({ query: statement });
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
              await client.command({ query: text, query_params: params });
            },
          },
          opts.ttl,
          opts.cluster,
        );
      },
      insertSpans: async (rows: readonly SpanRow[]) => {
        if (rows.length > 0) await insertStagedSpans([stageSpans(null, encodeSpans(rows))]);
      },
      stagingDir: null,
      insertStagedSpans,
      insertStagedDatapoints,
      async insertRows(table, rows) {
        if (rows.length === 0) return;
        await client.insert({ table, values: rows, format: 'JSONEachRow' });
      },
      async command(q: SqlFragment) {
        const { text, params } = compile(q);
        try {
          await client.command({ query: text, query_params: params });
        } catch (err) {
          if (!(err instanceof ClickHouseError))
            throw new StoreUnavailableError(`ClickHouse is unreachable: ${(err as Error).message}`);
          throw new StoreQueryError(cleanEngineMessage(err.message), text);
        }
      },
      query: run,
      queryText: (q: SqlFragment) => read(q, 'TabSeparatedRaw', (rs) => rs.text()),
      // The views keep the rollups (docs/decisions/datapoint-rollups.md).
      rollupWatermark: () => null,
      readRollups: (read) => read(null),
      rollUp: async () => undefined,
      rollUpAll: async () => undefined,
      async close() {
        await client.close();
      },
    },
    insertSpanMetricLines,
  );
}
