import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

/** Metadata migration `0002_tracing`: saved views (per project and user) and pinned facets (per user). */
export const tracingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('saved_views')
      .ifNotExists()
      .addColumn('id', pg ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('saved_views_project_idx')
      .ifNotExists()
      .on('saved_views')
      .columns(['project_id', 'pinned', 'created_at'])
      .execute();
    await db.schema
      .createTable('pinned_facets')
      .ifNotExists()
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('attr', 'text', (c) => c.notNull())
      .addColumn('unpinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('pinned_facets_pk', ['user_id', 'attr'])
      .execute();
  },
};

// A type, not an interface: withTables needs an index-compatible type.
export type TracingTables = {
  saved_views: {
    id: import('kysely').Generated<number>;
    user_id: number;
    project_id: number;
    name: string;
    route: string;
    params: string;
    query: string;
    pinned: number;
    created_at: string;
  };
  pinned_facets: { user_id: number; attr: string; unpinned: number };
};
