import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Session } from 'chdb';
import type { Config } from '../../config';
import { spanMetricsModel } from '../../metricsFromSpans';
import { compile, type SqlFragment } from '../../storage/sql';
import {
  createDatapointRollups,
  foldJournalPending,
  openClickHouseStore,
  ROLLUP_STATE_TABLE,
} from '../../storage/telemetry';
import { MigrateStorageError, notEmptyMessage, type Progress, type TableCount } from './progress';

/**
 * Rows per INSERT (a chunk is whole minutes, so one busy minute may make it larger): a chunk is
 * held in memory once, and 50,000 span pages are some 50-100 MB.
 */
export const CHUNK_ROWS = 50_000;

/**
 * Copies the embedded chDB telemetry (`<data_dir>/ch`) into a remote ClickHouse (`storage.ch.url`,
 * with `storage.ch.cluster` through its Distributed tables): the target's schema is migrated
 * first (as a node's start does), then every table is copied as it is stored, rollups and
 * aggregate states included, in chunks of whole minutes (`SELECT … FORMAT TabSeparated` from
 * chDB, the bytes posted as `INSERT … FORMAT TabSeparated`; both in UTC), and the counts compared
 * at the end.
 *
 * The target's materialized views are detached while the rows go in, and attached again after:
 * the rollups (span_groups_1m/1h, datapoint_15m/hours) are copied as they are, so a view firing on
 * the copied spans or minutes would count them twice. Copying every table as stored, rather than
 * the base tables with the views rebuilding the rest, is exact whatever the views are: no
 * recomputation, and the datapoints of metrics from spans stay those of the definitions of their day.
 *
 * The embedded store keeps its datapoint rollups itself, up to a watermark (its job's, a few
 * minutes behind; docs/decisions/datapoint-rollups.md), where the target's views keep them on
 * every insert: so the source's rollups are first brought up to its last minute (the one write to
 * the source, what its job would have done), and its watermark table is not copied.
 *
 * Aggregating tables are read `FINAL` (their rows folded, as every query reads them), so their
 * counts compare with `FINAL` on both sides. The source must be at this version's migrations; a
 * target with rows is refused unless `replace` (which truncates it).
 */
export async function copyTelemetry(opts: {
  config: Config;
  /** The embedded store's session (null when it has no data directory). */
  source: Session | null;
  chdbPath: string;
  targetUrl: string;
  cluster: string;
  replace: boolean;
  progress: Progress;
}): Promise<TableCount[]> {
  const { config, source, chdbPath, targetUrl, cluster, progress } = opts;
  if (!source)
    throw new MigrateStorageError(`no embedded telemetry at ${chdbPath}: is data_dir the one of the Lantern to move?`);
  // Metrics from spans a killed Lantern journaled and had not inserted (spanMetricJournal.ts): its
  // next start inserts them; a copy now would leave them behind.
  const journal = join(chdbPath, 'span-metrics-journal');
  if (
    existsSync(journal) &&
    readdirSync(journal, { withFileTypes: true }).some((f) => f.isFile() && f.name.endsWith('.tsv'))
  )
    throw new MigrateStorageError(
      `${journal} holds metrics from spans not yet inserted (Lantern was not stopped cleanly): start Lantern once on this data_dir, stop it, and run migrate-storage again`,
    );
  // Metrics ingest's datapoints a killed Lantern journaled and had not written (datapointFoldWriter.ts).
  const fold = join(chdbPath, 'datapoint-journal');
  if (foldJournalPending(fold))
    throw new MigrateStorageError(
      `${fold} holds datapoints not yet inserted (Lantern was not stopped cleanly): start Lantern once on this data_dir, stop it, and run migrate-storage again`,
    );
  const target = createClient({
    url: targetUrl,
    clickhouse_settings: {
      session_timezone: 'UTC',
      wait_end_of_query: 1,
      max_memory_usage: String(config.storage.ch.max_memory_usage),
      ...(cluster ? { insert_distributed_sync: 1 } : {}),
    },
  });
  try {
    const sourceJson = async <T>(query: string): Promise<T[]> =>
      parseLines<T>((await source.queryAsync(query, { format: 'JSONEachRow' })).text());
    const targetJson = async <T>(query: string): Promise<T[]> =>
      (await target.query({ query, format: 'JSONEachRow' })).json<T>();

    const sourceVersions = (await sourceJson<{ version: number }>(`SELECT version FROM lantern_migrations`)).map((r) =>
      Number(r.version),
    );
    const store = openClickHouseStore({
      url: targetUrl,
      cluster,
      ttl: { spansDays: config.retention.spans_days, metricsDays: config.retention.metrics_days },
      spanMetrics: spanMetricsModel(config.metrics_from_spans),
      maxMemoryUsage: config.storage.ch.max_memory_usage,
      maxThreads: config.storage.ch.max_threads,
    });
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
    const targetVersions = (await targetJson<{ version: number }>(`SELECT version FROM lantern_migrations`)).map((r) =>
      Number(r.version),
    );
    const sorted = (v: number[]) => [...new Set(v)].sort((a, b) => a - b).join(', ');
    if (sorted(sourceVersions) !== sorted(targetVersions))
      throw new MigrateStorageError(
        `the embedded telemetry is at migrations [${sorted(sourceVersions)}], this Lantern version at [${sorted(targetVersions)}]: ` +
          `start this version once on the embedded storage (it migrates at start), stop it, and run migrate-storage again`,
      );

    // Every stored minute into the rollups, so the copied rollups are whole.
    const runSource = async (q: SqlFragment) => {
      const { text, params } = compile(q);
      const res = Object.keys(params).length
        ? await source.queryBindAsync(text, params, { format: 'JSONEachRow' })
        : await source.queryAsync(text, { format: 'JSONEachRow' });
      return parseLines<unknown>(res.text());
    };
    const rollups = createDatapointRollups(runSource);
    await rollups.load();
    await rollups.rollUpAll();
    progress(`telemetry: datapoint rollups brought up to the last stored minute`);

    const TABLES_SQL = (engine: string) =>
      `SELECT name, engine FROM system.tables WHERE database = currentDatabase() AND ${engine} ORDER BY name`;
    const tables = (await sourceJson<{ name: string; engine: string }>(TABLES_SQL(`engine LIKE '%MergeTree'`))).filter(
      (t) => t.name !== 'lantern_migrations' && t.name !== ROLLUP_STATE_TABLE,
    );
    const targetNames = new Set(
      (await targetJson<{ name: string }>(TABLES_SQL(`engine NOT IN ('MaterializedView', 'View')`))).map((t) => t.name),
    );
    const missing = tables.filter((t) => !targetNames.has(t.name)).map((t) => t.name);
    if (missing.length) throw new MigrateStorageError(`the target ClickHouse has no table ${missing.join(', ')}`);

    const on = cluster ? ` ON CLUSTER ${cluster}` : '';
    const final = (engine: string) => (engine === 'MergeTree' ? '' : ' FINAL');
    const countOf = async (
      run: <T>(q: string) => Promise<T[]>,
      table: string,
      engine: string,
      where = '',
    ): Promise<number> =>
      Number((await run<{ n: string }>(`SELECT count() AS n FROM ${table}${final(engine)}${where}`))[0].n);

    const nonEmpty = await tablesWithRows(target);
    if (nonEmpty.length && !opts.replace) throw new MigrateStorageError(notEmptyMessage('ClickHouse', nonEmpty));
    for (const t of nonEmpty) await target.command({ query: `TRUNCATE TABLE ${cluster ? `${t}_local` : t}${on}` });

    const views = (await targetJson<{ name: string }>(TABLES_SQL(`engine = 'MaterializedView'`))).map((v) => v.name);
    for (const v of views) await target.command({ query: `DETACH TABLE ${v}${on}` });
    progress(`telemetry: materialized views detached while copying (${views.join(', ')})`);
    const counts: TableCount[] = [];
    try {
      for (const { name, engine } of tables) {
        const columns = (
          await sourceJson<{ name: string }>(
            `SELECT name FROM system.columns WHERE database = currentDatabase() AND table = '${name}' ORDER BY position`,
          )
        ).map((c) => c.name);
        const total = await countOf(sourceJson, name, engine);
        const chunks = columns.includes('time')
          ? minuteChunks(
              await sourceJson<{ m: string; n: string }>(
                `SELECT toUnixTimestamp(toStartOfMinute(time)) AS m, count() AS n FROM ${name}${final(engine)} GROUP BY m ORDER BY m`,
              ),
            )
          : [null];
        let copied = 0;
        for (const chunk of chunks) {
          const where = chunk ? ` WHERE time >= toDateTime(${chunk.from}) AND time < toDateTime(${chunk.to})` : '';
          const rows = await source.queryAsync(
            `SELECT ${columns.join(', ')} FROM ${name}${final(engine)}${where} SETTINGS session_timezone = 'UTC'`,
            { format: 'TabSeparated' },
          );
          const bytes = rows.bytes();
          if (bytes.length > 0) {
            const res = await target.exec({
              query: `INSERT INTO ${name} (${columns.join(', ')}) FORMAT TabSeparated`,
              values: Readable.from([Buffer.from(bytes)]),
            });
            res.stream.resume();
          }
          copied += chunk?.rows ?? total;
          progress(`telemetry ${name}: ${copied} of ${total} rows`);
        }
        counts.push({ table: name, source: total, target: 0 });
      }
    } finally {
      for (const v of views) await target.command({ query: `ATTACH TABLE ${v}${on}` });
      progress(`telemetry: materialized views attached again`);
    }
    for (const c of counts) {
      const engine = tables.find((t) => t.name === c.table)!.engine;
      c.target = await countOf(targetJson, c.table, engine);
    }
    const wrong = counts.filter((c) => c.source !== c.target);
    if (wrong.length)
      throw new MigrateStorageError(
        `telemetry counts differ after the copy: ${wrong.map((c) => `${c.table} ${c.source} in the source, ${c.target} in the target`).join('; ')}`,
      );
    return counts;
  } finally {
    await target.close();
  }
}

/** Our tables in a ClickHouse database that hold rows (the migrations' bookkeeping aside). */
export async function tablesWithRows(client: ClickHouseClient): Promise<string[]> {
  const json = async <T>(query: string) => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const tables = await json<{ name: string }>(
    `SELECT name FROM system.tables WHERE database = currentDatabase()
     AND engine NOT IN ('MaterializedView', 'View') AND name != 'lantern_migrations' AND NOT endsWith(name, '_local')
     ORDER BY name`,
  );
  const out: string[] = [];
  for (const { name } of tables)
    if (Number((await json<{ n: string }>(`SELECT count() AS n FROM ${name}`))[0].n) > 0) out.push(name);
  return out;
}

/** Consecutive minutes (unix seconds, row counts) gathered into [from, to) ranges of up to CHUNK_ROWS rows. */
export function minuteChunks(
  minutes: readonly { m: string | number; n: string | number }[],
  chunkRows = CHUNK_ROWS,
): { from: number; to: number; rows: number }[] {
  const out: { from: number; to: number; rows: number }[] = [];
  for (const { m, n } of minutes) {
    const minute = Number(m);
    const rows = Number(n);
    const last = out[out.length - 1];
    if (last && last.rows + rows <= chunkRows) {
      last.to = minute + 60;
      last.rows += rows;
    } else out.push({ from: minute, to: minute + 60, rows });
  }
  return out;
}

function parseLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T);
}
