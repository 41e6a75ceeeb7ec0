import { dashboardsMigration, dismissedTemplatesMigration } from '../../dashboards/dashboards.migration';
import { alertListMigration, alertingMigration } from '../../alerting/alerting.migration';
import { authSessionsMigration } from '../../auth/auth.migration';
import { PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { tracingMigration } from '../../tracing/tracing.migration';

/** Metadata migrations in code, applied in name order by Kysely's Migrator (SQLite and PostgreSQL). */
const migrations: Record<string, Migration> = {
  '0001_users': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .ifNotExists()
        .addColumn('id', idType(db), (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
        .execute();
    },
  },
  '0002_tracing': tracingMigration,
  '0003_metrics': dashboardsMigration,
  '0004_alerting': alertingMigration,
  '0005_dismissed_templates': dismissedTemplatesMigration,
  '0006_alert_list': alertListMigration,
  '0007_auth_sessions': authSessionsMigration,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/** SQLite assigns an INTEGER PRIMARY KEY itself; PostgreSQL needs a serial. */
function idType(db: Kysely<unknown>): 'serial' | 'integer' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}
