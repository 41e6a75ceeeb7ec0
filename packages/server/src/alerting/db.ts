import type { Kysely, Transaction } from 'kysely';
import type { MetadataDb } from '../storage/metadata';
import type { Database } from '../storage/metadata/database';
import type { AlertingTables } from './alerting.migration';

/** The metadata database seen with the alerting tables. */
export type AlertingDb = Kysely<Database & AlertingTables>;
export type AlertingTrx = Transaction<Database & AlertingTables>;

export function alertingDb(db: MetadataDb): AlertingDb {
  return db.withTables<AlertingTables>();
}

export const iso = (d: Date) => d.toISOString();
export const bool = (n: number | boolean) => Boolean(n);
