/** One line of progress for the operator (stdout of `lantern migrate-storage`). */
export type Progress = (line: string) => void;

/** Rows of one table in the source and in the target once copied. */
export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** A refusal or a failed check, with what to do about it: printed as is, exit status 1. */
export class MigrateStorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrateStorageError';
  }
}

/** The refusal of a target that holds rows. */
export const notEmptyMessage = (what: 'ClickHouse' | 'PostgreSQL', tables: string[]) =>
  `the target ${what} database is not empty (rows in ${tables.join(', ')}): nothing was copied. ` +
  `Point ${what === 'ClickHouse' ? '--to-ch' : '--to-db'} at an empty database, or pass --replace to empty it first`;
