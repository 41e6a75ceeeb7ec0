import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { migrateMetadataDb, openMetadataDb } from '../../storage/metadata';
import type { Config } from '../../config';
import { METADATA_MIGRATIONS } from '../metadataMigrations';
import { MigrateStorageError, notEmptyMessage, type Progress, type TableCount } from './progress';

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for our widest table. */
const BATCH_ROWS = 500;

/** Kysely's own bookkeeping: the target gets its own from running the migrations. */
const isBookkeeping = (table: string) => table.startsWith('kysely_') || table.startsWith('sqlite_');

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/**
 * Copies the embedded SQLite metadata (`<data_dir>/lantern.db`) into PostgreSQL: the target is
 * migrated first (the same migrations a node runs at start), then every table is copied in one
 * transaction, parents before the tables that reference them, each serial column's sequence set
 * past the highest id copied, and the row counts compared before the commit. A target that
 * already holds rows is refused unless `replace`, which empties it in the same transaction.
 * The source is opened read-only and must be at this version's migrations.
 */
export async function copyMetadata(opts: {
  config: Config;
  sqlitePath: string;
  targetUrl: string;
  replace: boolean;
  progress: Progress;
}): Promise<TableCount[]> {
  const { sqlitePath, targetUrl, progress } = opts;
  if (!existsSync(sqlitePath))
    throw new MigrateStorageError(`no embedded metadata at ${sqlitePath}: is data_dir the one of the Lantern to move?`);
  const source = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
  try {
    const applied = source
      .prepare(`SELECT name FROM kysely_migration ORDER BY name`)
      .all()
      .map((r) => (r as { name: string }).name);
    const expected = Object.keys(METADATA_MIGRATIONS).sort();
    if (applied.join() !== expected.join())
      throw new MigrateStorageError(
        `the embedded metadata is at migrations [${applied.join(', ')}], this Lantern version at [${expected.join(', ')}]: ` +
          `start this version once on the embedded storage (it migrates at start), stop it, and run migrate-storage again`,
      );

    const targetDb = openMetadataDb({ ...opts.config, storage: { ...opts.config.storage, db: { url: targetUrl } } });
    try {
      await migrateMetadataDb(targetDb, METADATA_MIGRATIONS);
    } finally {
      await targetDb.destroy();
    }

    const client = new pg.Client({ connectionString: targetUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const counts = await copyTables(source, client, opts.replace, progress);
      await client.query('COMMIT');
      return counts;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await client.end();
    }
  } finally {
    source.close();
  }
}

async function copyTables(
  source: SQLite.Database,
  client: pg.Client,
  replace: boolean,
  progress: Progress,
): Promise<TableCount[]> {
  const targetTables = await metadataTables(client);
  const sourceTables = source
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)
    .all()
    .map((r) => (r as { name: string }).name)
    .filter((t) => !isBookkeeping(t));
  const missing = sourceTables.filter((t) => !targetTables.includes(t));
  if (missing.length) throw new MigrateStorageError(`the target database has no table ${missing.join(', ')}`);

  const nonEmpty = await metadataTablesWithRows(client);
  if (nonEmpty.length && !replace) throw new MigrateStorageError(notEmptyMessage('PostgreSQL', nonEmpty));
  if (nonEmpty.length) await client.query(`TRUNCATE ${targetTables.map(quote).join(', ')} RESTART IDENTITY CASCADE`);

  const counts: TableCount[] = [];
  for (const table of await dependencyOrder(client, sourceTables)) {
    const columns = (source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
      (c) => c.name,
    );
    const rows = source
      .prepare(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)}`)
      .raw()
      .iterate();
    let batch: unknown[][] = [];
    let copied = 0;
    const flush = async () => {
      if (!batch.length) return;
      const values = batch.map((row, r) => `(${row.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
      await client.query(
        `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${values.join(', ')}`,
        batch.flat(),
      );
      copied += batch.length;
      batch = [];
    };
    for (const row of rows) {
      batch.push(row as unknown[]);
      if (batch.length === BATCH_ROWS) await flush();
    }
    await flush();
    await resetSequences(client, table);
    const sourceRows = Number(
      (source.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number | bigint }).n,
    );
    const targetRows = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`)).rows[0].n,
    );
    if (targetRows !== sourceRows || copied !== sourceRows)
      throw new MigrateStorageError(
        `metadata table ${table}: ${sourceRows} rows in the source, ${targetRows} in the target after the copy; nothing was committed`,
      );
    counts.push({ table, source: sourceRows, target: targetRows });
    progress(`metadata ${table}: ${copied} rows`);
  }
  return counts;
}

async function metadataTables(client: pg.Client): Promise<string[]> {
  const r = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return r.rows.map((t) => t.name).filter((t) => !isBookkeeping(t));
}

/** Our tables in a PostgreSQL database that hold rows (none before the schema exists). */
export async function metadataTablesWithRows(client: pg.Client): Promise<string[]> {
  const out: string[] = [];
  for (const t of await metadataTables(client))
    if ((await client.query(`SELECT 1 FROM ${quote(t)} LIMIT 1`)).rowCount) out.push(t);
  return out;
}

/** Tables referenced by a foreign key first (then by name), so every row's parent is already there. */
async function dependencyOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
    )
  ).rows;
  const order: string[] = [];
  const visit = (t: string, path: string[]) => {
    if (order.includes(t)) return;
    if (path.includes(t))
      throw new MigrateStorageError(`metadata tables reference each other in a cycle: ${path.join(' -> ')}`);
    for (const e of edges)
      if (e.child === t && e.parent !== t && tables.includes(e.parent)) visit(e.parent, [...path, t]);
    order.push(t);
  };
  for (const t of [...tables].sort()) visit(t, []);
  return order;
}

/** A serial column's next value: past the highest id copied (1 on an empty table). */
async function resetSequences(client: pg.Client, table: string): Promise<void> {
  const serials = (
    await client.query<{ column: string; seq: string }>(
      `SELECT column_name AS column, pg_get_serial_sequence(quote_ident($1), column_name) AS seq
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
      [table],
    )
  ).rows.filter((r) => r.seq);
  for (const { column, seq } of serials) {
    await client.query(
      `SELECT setval($1::regclass, COALESCE((SELECT max(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`,
      [seq],
    );
  }
}
