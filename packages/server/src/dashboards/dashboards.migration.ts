import { PostgresAdapter, sql, type Generated, type Kysely, type Migration } from 'kysely';

/**
 * Metadata migration `0003_metrics`: dashboards, their grid items and gauges (reference
 * alerting-dashboards §1.4). JSON fields are stored as text so SQLite and PostgreSQL share one
 * schema. `edited` records that a user changed the dashboard in any way (rename, table, pin,
 * layout, items, gauges, YAML): template sync never rebuilds an edited dashboard (§4.6 quirk fix).
 */
export const dashboardsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const id = db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
    await db.schema
      .createTable('dashboards')
      .ifNotExists()
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('grid_query', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('table_metrics', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('table_query', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('table_grouping', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('table_column_map', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
    await db.schema
      .createIndex('dashboards_project_id_idx')
      .ifNotExists()
      .on('dashboards')
      .column('project_id')
      .execute();
    await db.schema
      .createTable('dash_grid_columns')
      .ifNotExists()
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('dash_id', 'integer', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('x_axis', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('y_axis', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('grid_query_template', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
    await db.schema
      .createIndex('dash_grid_columns_dash_id_idx')
      .ifNotExists()
      .on('dash_grid_columns')
      .column('dash_id')
      .execute();
    await db.schema
      .createTable('dash_gauges')
      .ifNotExists()
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('dash_id', 'integer', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('dash_kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('idx', 'integer')
      .addColumn('template', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('metrics', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('column_map', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('grid_query_template', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
    await db.schema.createIndex('dash_gauges_dash_id_idx').ifNotExists().on('dash_gauges').column('dash_id').execute();
  },
};

/**
 * Metadata migration `0005_dismissed_templates`: built-in templates a user deleted from a project.
 * Template sync does not install them again (the reference reinstalled a deleted template
 * dashboard on the next sync).
 */
export const dismissedTemplatesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dash_dismissed_templates')
      .ifNotExists()
      .addColumn('project_id', 'integer', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .addPrimaryKeyConstraint('dash_dismissed_templates_pk', ['project_id', 'template_id'])
      .execute();
  },
};

/**
 * Metadata migration `0010_dashboard_variables` (issue 41): a dashboard's variables, a JSON list of
 * DashboardVariable (text, as the other JSON fields).
 */
export const dashboardVariablesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('dashboards')
      .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};

/** Metadata migration `0011_dashboard_tags` (issue 41): a dashboard's tags, a JSON list of strings. */
export const dashboardTagsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('dashboards')
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};

/**
 * Metadata migration `0012_gauge_look` (issue 41): how a gauge shows its value (text, stat or dial,
 * its thresholds and a dial's range), a JSON GaugeLook; '{}' (older gauges) reads as text with none.
 */
export const gaugeLookMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('dash_gauges')
      .addColumn('look', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};

export interface DashDismissedTemplatesTable {
  project_id: number;
  template_id: string;
  created_at: Generated<string>;
}

export interface DashboardsTable {
  id: Generated<number>;
  project_id: number;
  template_id: string;
  name: string;
  pinned: number;
  edited: number;
  grid_query: string;
  table_metrics: string;
  table_query: string;
  table_grouping: string;
  table_column_map: string;
  variables: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface DashGridColumnsTable {
  id: Generated<number>;
  project_id: number;
  dash_id: number;
  name: string;
  description: string;
  width: number;
  height: number;
  x_axis: number;
  y_axis: number;
  grid_query_template: string;
  type: string;
  params: string;
  created_at: string;
  updated_at: string;
}

export interface DashGaugesTable {
  id: Generated<number>;
  project_id: number;
  dash_id: number;
  dash_kind: string;
  name: string;
  description: string;
  idx: number | null;
  template: string;
  metrics: string;
  query: string;
  column_map: string;
  grid_query_template: string;
  look: string;
  created_at: string;
  updated_at: string;
}

// A type, not an interface: withTables needs an index-compatible type.
export type DashboardsTables = {
  dashboards: DashboardsTable;
  dash_grid_columns: DashGridColumnsTable;
  dash_gauges: DashGaugesTable;
  dash_dismissed_templates: DashDismissedTemplatesTable;
};
