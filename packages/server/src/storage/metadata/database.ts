import type { Kysely } from 'kysely';

/**
 * The metadata database as storage knows it: a Kysely connection with no tables of its own. Each
 * domain defines its tables and migrations (`<domain>.migration.ts`) and sees the database with
 * them through `db.withTables<ItsTables>()`; `app/metadataMigrations.ts` lists the migrations.
 * Every project-scoped table carries project_id (architecture §4, isolation).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's type of a database with no tables: a domain adds its own
export type NoTables = {};
export type MetadataDb = Kysely<NoTables>;
