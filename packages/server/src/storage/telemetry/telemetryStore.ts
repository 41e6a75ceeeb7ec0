import type { SpanRow } from '../../ingest/spanRow';
import type { EncodedSpans } from './spanRowEncoding';
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
  /** Same, for rows already encoded with `encodeSpans` (what the ingest batcher holds). */
  insertEncodedSpans(spans: EncodedSpans): Promise<void>;
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
