import type { SpanRow } from './spanRow';
import type { StagedDatapoints } from './datapointStaging';
import type { StagedSpans } from './spanStaging';
import type { SqlFragment } from '../sql';

/**
 * Telemetry storage: the same SQL over embedded chDB or a remote ClickHouse. Nothing outside
 * storage/ knows which one is in use.
 */
export interface TelemetryStore {
  readonly kind: 'chdb' | 'clickhouse';
  /** Applies pending schema migrations. */
  migrate(): Promise<void>;
  /** Resolves only once the rows are committed (durable across a process kill). */
  insertSpans(rows: readonly SpanRow[]): Promise<void>;
  /**
   * Where `stageSpans` puts large chunks for `insertStagedSpans` (emptied when the store opens);
   * null when the store takes every chunk in memory.
   */
  readonly stagingDir: string | null;
  /**
   * Same, for rows encoded and staged with `stageSpans` (what the ingest batcher holds), as one
   * insert per table. Takes the chunks over: their files are removed once it returns, committed
   * or not.
   */
  insertStagedSpans(chunks: readonly StagedSpans[]): Promise<void>;
  /**
   * Datapoint rows encoded and staged with `stageDatapoints` (what metrics ingest's batcher
   * holds) into `datapoint_minutes`, as one insert; resolves once committed. Takes the chunks
   * over: their files are removed once it returns, committed or not.
   */
  insertStagedDatapoints(chunks: readonly StagedDatapoints[]): Promise<void>;
  /**
   * Inserts plain JSON rows (JSONEachRow) into one of our tables; resolves once committed.
   * `table` is an identifier we own, never user text.
   */
  insertRows(table: InsertTable, rows: readonly object[]): Promise<void>;
  /** Runs a SELECT; 64-bit integers come back as strings. */
  query<T = Record<string, unknown>>(q: SqlFragment): Promise<T[]>;
  close(): Promise<void>;
}

/** Tables written with insertRows. */
export type InsertTable = 'datapoint_minutes' | 'metrics_catalog';

/** The engine refused a query (bad SQL, type error, limits). Carries the engine's message. */
export class StoreQueryError extends Error {
  constructor(
    message: string,
    readonly queryText: string,
  ) {
    super(message);
    this.name = 'StoreQueryError';
  }
}

/** The store cannot be reached (remote server down or unreachable): retry later, nothing is wrong with the query. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
