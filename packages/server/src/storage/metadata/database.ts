import type { DashboardsTables } from '../../dashboards/dashboards.migration';
import type { Generated } from 'kysely';

/** Metadata tables. Every project-scoped table carries project_id (architecture §4, isolation). */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  created_at: string;
}

export interface Database extends DashboardsTables {
  users: UsersTable;
}
