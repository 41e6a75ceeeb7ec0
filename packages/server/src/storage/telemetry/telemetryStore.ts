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
  /**
   * Runs a statement that answers nothing (an `INSERT ... SELECT` of our own); resolves once it
   * has committed. Ends the sharing of reads started before it, as every write does.
   */
  command(q: SqlFragment): Promise<void>;
  /** Runs a SELECT; 64-bit integers come back as strings. */
  query<T = Record<string, unknown>>(q: SqlFragment): Promise<T[]>;
  /**
   * Runs a SELECT and returns the engine's text as is (TabSeparatedRaw: values by tabs, rows by
   * newlines, nothing escaped): for a query that writes its answer as one value of JSON text, read
   * with one JSON.parse, where `query` would escape that text into a JSON string first.
   */
  queryText(q: SqlFragment): Promise<string>;
  /**
   * The rollups' watermark (docs/decisions/datapoint-rollups.md): datapoints before it are in
   * `datapoint_15m` and `datapoint_hours`, later ones only in `datapoint_minutes`. null: the
   * rollups hold every row (a remote ClickHouse keeps them by views).
   */
  rollupWatermark(): Date | null;
  /**
   * Runs `read` (queries of the rollups) with the watermark, and again if the rollups moved on
   * while it ran, so its answer is of one watermark.
   */
  readRollups<T>(read: (watermark: Date | null) => Promise<T>): Promise<T>;
  /** Rolls the closed windows up to `now` (the embedded store's job runs it every minute; tests call it). */
  rollUp(now?: Date): Promise<void>;
  /** Rolls every stored minute up, to the last (before a copy with migrate-storage, Lantern stopped). */
  rollUpAll(): Promise<void>;
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
