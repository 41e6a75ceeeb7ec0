// Metadata storage: one Kysely database, SQLite by default or PostgreSQL for scale-out, and the
// migrator. The tables and their migrations are the domains' own. Knows nothing of HTTP.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  sql,
  SqliteDialect,
  type Migration,
  type QueryExecutorProvider,
} from 'kysely';
import type Pg from 'pg';
import type { Config } from '../../config';
import type { MetadataDb, NoTables } from './database';

export type { MetadataDb } from './database';

const require = createRequire(import.meta.url);

/** The PostgreSQL client, loaded when a server uses PostgreSQL (~0.06 CPU-s a start otherwise). */
const loadPg = () => require('pg') as typeof Pg;

export function openMetadataDb(config: Config): MetadataDb {
  const url = config.storage.db.url;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new Error('storage.db.url must be a postgres:// URL (or empty for SQLite)');
    const pool = new (loadPg().Pool)({ connectionString: url, max: 10 });
    // An idle connection that the server drops (restart, failover) is reported here; without a
    // listener it would end the process. The next query gets a new connection or the error itself.
    pool.on('error', () => undefined);
    return new Kysely<NoTables>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(config.data_dir, { recursive: true });
  const db = new SQLite(join(config.data_dir, 'lantern.db'));
  // WAL: readers do not block the writer; synchronous=NORMAL is durable across process crashes in WAL mode.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return new Kysely<NoTables>({ dialect: new SqliteDialect({ database: db }) });
}

/**
 * Applies the domains' migrations (`app/metadataMigrations.ts`), in name order, each once (Kysely's
 * Migrator, SQLite and PostgreSQL).
 */
export async function migrateMetadataDb(
  db: MetadataDb,
  migrations: Readonly<Record<string, Migration>>,
): Promise<void> {
  const provider = { getMigrations: async () => ({ ...migrations }) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `metadata migration${failed ? ` ${failed.migrationName}` : ''} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`,
    );
  }
}

/** Network errors and PostgreSQL's connection-class (08) and shutdown (57P) states. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  'SQLITE_BUSY',
]);

/**
 * True when an error says the metadata database cannot be reached right now (as opposed to a
 * bad query): the API answers 503 and the caller may retry.
 */
export function isMetadataUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
  return (
    typeof e.message === 'string' &&
    /^(Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect)/.test(e.message)
  );
}

/** The id column of a new table: SQLite assigns an INTEGER PRIMARY KEY itself; PostgreSQL needs a serial. */
export function idColumnType(db: Kysely<unknown>): 'serial' | 'integer' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}

/**
 * For a per-project cap, inside the transaction that then inserts: whether `table` holds fewer than
 * `max` rows of the project. It first waits until no other transaction holds the project's lock of
 * that table, then holds it until this one ends, so concurrent inserts count one after the other
 * (there is no parent row to lock). PostgreSQL: a transaction-level advisory lock. SQLite: nothing
 * to lock, Kysely runs one transaction at a time on its one connection.
 */
export async function projectHasRoom(
  trx: QueryExecutorProvider,
  table: string,
  projectId: number,
  max: number,
): Promise<boolean> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtext(${table}), ${projectId}::int)`.execute(trx);
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where project_id = ${projectId}`.execute(trx);
  return Number(rows[0].n) < max;
}
