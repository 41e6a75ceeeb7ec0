import { mkdirSync } from 'node:fs';
import { Session } from 'chdb';
import type { SpanRow } from '../../ingest/spanRow';
import { compile, sql, param, type SqlFragment } from '../sql';
import { applyMigrations } from './migrate';
import { encodeSpans, SPANS_DATA_COLUMNS, SPANS_INDEX_COLUMNS, type EncodedSpans } from './spanRowEncoding';
import { StoreQueryError, type TelemetryStore } from './telemetryStore';

export interface ChdbStoreOptions {
  path: string;
  ttl: { spansDays: number; metricsDays: number };
  maxMemoryUsage: number;
  maxThreads: number;
}

/**
 * Embedded chDB. One session per data directory per process (chDB binds the path). Only the
 * async calls are used: the sync ones block the event loop for the whole query.
 */
export function openChdbStore(opts: ChdbStoreOptions): TelemetryStore {
  mkdirSync(opts.path, { recursive: true });
  const session = new Session(opts.path, {
    connectionArgs: [
      '--output_format_json_quote_64bit_integers=1',
      `--max_memory_usage=${opts.maxMemoryUsage}`,
      `--max_threads=${opts.maxThreads}`,
    ],
  });

  const run = async <T>(q: SqlFragment): Promise<T[]> => {
    const { text, params } = compile(q);
    try {
      const res = Object.keys(params).length
        ? await session.queryBindAsync(text, params, { format: 'JSONEachRow' })
        : await session.queryAsync(text, { format: 'JSONEachRow' });
      return parseJsonEachRow<T>(res.text());
    } catch (err) {
      throw new StoreQueryError(cleanEngineMessage((err as Error).message), text);
    }
  };

  const insertEncodedSpans = async ({ rows, index, data }: EncodedSpans) => {
    if (rows === 0) return;
    // Both tables at once: each insert sorts, compresses and writes its part mostly on one
    // thread, so together they use both cores (bench/ingest: about 8% more spans/s). The batch
    // is acknowledged only when both have committed; for the moment between the two commits a
    // span may be listed before its page can be read, which the trace page already allows for
    // ("it may take up to 30 seconds to process a trace").
    await Promise.all([
      session.insert({ table: 'spans_data', values: data, format: 'TSV', columns: SPANS_DATA_COLUMNS }),
      session.insert({ table: 'spans_index', values: index, format: 'TSV', columns: SPANS_INDEX_COLUMNS }),
    ]);
  };

  return {
    kind: 'chdb',
    async migrate() {
      await applyMigrations(
        {
          exec: async (statement) => {
            await session.queryAsync(statement);
          },
          appliedVersions: async () =>
            (await run<{ version: number }>(sql`SELECT version FROM lantern_migrations`)).map((r) => Number(r.version)),
          record: async (version, name) => {
            const { text, params } = compile(
              sql`INSERT INTO lantern_migrations (version, name) VALUES (${param.uint32(version)}, ${param.string(name)})`,
            );
            await session.queryBindAsync(text, params);
          },
        },
        opts.ttl,
      );
    },
    insertSpans: async (rows: readonly SpanRow[]) => {
      if (rows.length > 0) await insertEncodedSpans(encodeSpans(rows));
    },
    insertEncodedSpans,
    async insertRows(table, rows) {
      if (rows.length === 0) return;
      await session.insert({ table, values: jsonEachRow(rows), format: 'JSONEachRow' });
    },
    query: run,
    async close() {
      session.close();
    },
  };
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
  return message.split('\n')[0].replace(/^Code: \d+\. DB::Exception: /, '').replace(/\. \([A-Z_]+\)$/, '');
}
