// Metadata storage: users and (later) monitors, alerts, channels, dashboards, saved views, in SQLite
// by default or PostgreSQL for scale-out, behind one Kysely database. Knows nothing of HTTP.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config';
import type { Database } from './database';
import { migrationProvider } from './migrations';

export type { Database } from './database';
export type MetadataDb = Kysely<Database>;

export function openMetadataDb(config: Config): MetadataDb {
  const url = config.storage.db.url;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('storage.db.url must be a postgres:// URL (or empty for SQLite)');
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection that the server drops (restart, failover) is reported here; without a
    // listener it would end the process. The next query gets a new connection or the error itself.
    pool.on('error', () => undefined);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(config.data_dir, { recursive: true });
  const db = new SQLite(join(config.data_dir, 'lantern.db'));
  // WAL: readers do not block the writer; synchronous=NORMAL is durable across process crashes in WAL mode.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
}

export async function migrateMetadataDb(db: MetadataDb): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`metadata migration ${failed?.migrationName ?? ''} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`);
  }
}

/** Network errors and PostgreSQL's connection-class (08) and shutdown (57P) states. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', 'SQLITE_BUSY']);

/**
 * True when an error says the metadata database cannot be reached right now (as opposed to a
 * bad query): the API answers 503 and the caller may retry.
 */
export function isMetadataUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
  return typeof e.message === 'string' && /^(Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect)/.test(e.message);
}
