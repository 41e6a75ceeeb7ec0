// `lantern migrate-storage`: moves a Lantern from embedded storage (chDB and SQLite under data_dir)
// to a remote ClickHouse and PostgreSQL, with Lantern stopped (docs/scale-out.md). Uses storage's
// migrations and the engines' clients; nothing imports it but main.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { Session } from 'chdb';
import pg from 'pg';
import type { Config } from '../../config';
import { copyMetadata, metadataTablesWithRows } from './copyMetadata';
import { copyTelemetry, tablesWithRows } from './copyTelemetry';
import { MigrateStorageError, notEmptyMessage, type Progress, type TableCount } from './progress';

export { MigrateStorageError } from './progress';

export interface MigrateStorageOptions {
  config: Config;
  /** PostgreSQL URL for the metadata; empty: metadata is not copied. */
  toDb: string;
  /** ClickHouse URL for telemetry; empty: telemetry is not copied. */
  toCh: string;
  /** ClickHouse cluster name of the target (its Distributed tables), or ''. */
  toCluster: string;
  /** Empty targets that hold rows instead of refusing them. */
  replace: boolean;
  progress: Progress;
}

export interface MigrateStorageReport {
  metadata: TableCount[] | null;
  telemetry: TableCount[] | null;
}

/**
 * Copies telemetry, then metadata. Both targets are checked for rows before either is written, so a
 * refused run changes nothing (but the targets' schemas, which a node would create anyway).
 */
export async function migrateStorage(opts: MigrateStorageOptions): Promise<MigrateStorageReport> {
  const { config, toDb, toCh, progress } = opts;
  if (!toDb && !toCh)
    throw new MigrateStorageError(
      'nothing to copy to: give --to-db postgres://… and/or --to-ch http://… (or set storage.db.url / storage.ch.url in the config)',
    );
  if (toDb && !/^postgres(ql)?:\/\//.test(toDb)) throw new MigrateStorageError('--to-db must be a postgres:// URL');
  if (toCh && !/^https?:\/\//.test(toCh)) throw new MigrateStorageError('--to-ch must be an http(s):// URL');
  const chdbPath = join(config.data_dir, 'ch');
  if (!opts.replace) {
    const refusals = [
      ...(toCh ? [await reach('ClickHouse', toCh, withClickHouse(toCh, tablesWithRows))] : []),
      ...(toDb ? [await reach('PostgreSQL', toDb, withPostgres(toDb, metadataTablesWithRows))] : []),
    ];
    const messages = refusals.flatMap((r) => (r.rows.length ? [notEmptyMessage(r.what, r.rows)] : []));
    if (messages.length) throw new MigrateStorageError(messages.join('\n'));
  }
  // Held open to the end: chDB lets one process have a data directory, so a Lantern still running
  // on it is refused here, and none can start on it while the copy runs.
  const source = existsSync(chdbPath) ? openSource(chdbPath) : null;
  try {
    progress(`copying from ${config.data_dir}`);
    const telemetry = toCh
      ? await copyTelemetry({
          config,
          source,
          chdbPath,
          targetUrl: toCh,
          cluster: opts.toCluster,
          replace: opts.replace,
          progress,
        })
      : null;
    const metadata = toDb
      ? await copyMetadata({
          config,
          sqlitePath: join(config.data_dir, 'lantern.db'),
          targetUrl: toDb,
          replace: opts.replace,
          progress,
        })
      : null;
    return { metadata, telemetry };
  } finally {
    source?.close();
  }
}

function openSource(chdbPath: string): Session {
  try {
    return new Session(chdbPath);
  } catch (err) {
    throw new MigrateStorageError(
      `cannot open the embedded telemetry at ${chdbPath} (${(err as Error).message}): is a Lantern still running on this data_dir? Stop it first`,
    );
  }
}

/** The URL without its password, for messages. */
const redact = (url: string) => url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

/** A target's check, or a refusal that names the target when it cannot be reached. */
async function reach(
  what: 'ClickHouse' | 'PostgreSQL',
  url: string,
  check: Promise<string[]>,
): Promise<{ what: 'ClickHouse' | 'PostgreSQL'; rows: string[] }> {
  try {
    return { what, rows: await check };
  } catch (err) {
    throw new MigrateStorageError(`cannot reach the target ${what} at ${redact(url)}: ${(err as Error).message}`);
  }
}
/** The report's table: rows per table in the source and the target. */
export function formatReport(report: MigrateStorageReport): string {
  const rows: [string, TableCount][] = [
    ...(report.telemetry ?? []).map((c): [string, TableCount] => ['telemetry', c]),
    ...(report.metadata ?? []).map((c): [string, TableCount] => ['metadata', c]),
  ];
  const width = Math.max(5, ...rows.map(([, c]) => c.table.length));
  return [
    `${'store'.padEnd(10)} ${'table'.padEnd(width)} ${'source'.padStart(10)} ${'target'.padStart(10)}`,
    ...rows.map(
      ([store, c]) =>
        `${store.padEnd(10)} ${c.table.padEnd(width)} ${String(c.source).padStart(10)} ${String(c.target).padStart(10)}`,
    ),
  ].join('\n');
}

async function withClickHouse<T>(url: string, f: (c: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url });
  try {
    return await f(client);
  } finally {
    await client.close();
  }
}

async function withPostgres<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end();
  }
}
