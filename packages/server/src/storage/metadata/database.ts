import type { SessionsTable } from '../../auth/auth.migration';
import type { DashboardsTables } from '../../dashboards/dashboards.migration';
import type { Generated } from 'kysely';

/** Metadata tables. Every project-scoped table carries project_id (architecture §4, isolation). */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  created_at: string;
  /** Null for users from the config; the OIDC provider id for users created by single sign-on. */
  sso_provider: string | null;
}

export interface Database extends DashboardsTables {
  users: UsersTable;
  sessions: SessionsTable;
}
