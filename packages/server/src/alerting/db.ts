import type { Kysely, Transaction } from 'kysely';
import type { MetadataDb } from '../storage/metadata';
import type { AuthTables } from '../auth';
import type { AlertingTables } from './alerting.migration';

/** The metadata database seen with the alerting tables. */
export type AlertingDb = Kysely<AuthTables & AlertingTables>;
export type AlertingTrx = Transaction<AuthTables & AlertingTables>;

export function alertingDb(db: MetadataDb): AlertingDb {
  return db.withTables<AuthTables & AlertingTables>();
}

export const iso = (d: Date) => d.toISOString();
export const bool = (n: number | boolean) => Boolean(n);
