import { sql, type Generated, type Kysely, type Migration } from 'kysely';
import { idColumnType } from '../storage/metadata';

/** Metadata migration `0001_users`. */
export const usersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .ifNotExists()
      .addColumn('id', idColumnType(db), (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .execute();
  },
};

/**
 * Metadata migration `0007_auth_sessions`: sessions kept on the server (sign out ends them, a
 * restart keeps them) and where a user came from: `sso_provider` is null for users from the
 * config and the OIDC provider id for users created at their first single sign-on.
 */
export const authSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('sso_provider', 'text').execute();
    await db.schema
      .createTable('sessions')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      // ISO-8601 UTC text: compares in time order as text in SQLite and PostgreSQL alike.
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').ifNotExists().on('sessions').column('user_id').execute();
  },
};

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  created_at: string;
  /** Null for users from the config; the OIDC provider id for users created by single sign-on. */
  sso_provider: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}

// A type, not an interface: withTables needs an index-compatible type.
export type AuthTables = { users: UsersTable; sessions: SessionsTable };
