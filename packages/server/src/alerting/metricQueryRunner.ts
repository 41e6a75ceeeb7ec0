import type { MonitorMetric } from '@lantern/shared';

/**
 * The seam between metric monitors and the metrics query engine. The engine implements this
 * interface and is passed to `createAlerting({ metrics })`; until then metric monitors are
 * evaluated as "no data" with a state reason saying why, and their column is not checked on save.
 */
export interface MetricQueryRunner {
  /**
   * The columns `query` yields over `metrics` (aliases bound with `$alias`), for validating a
   * monitor on save. Throws MetricQueryError for an unknown metric or a query that does not parse.
   */
  columns(req: { projectId: number; metrics: MonitorMetric[]; query: string }): Promise<string[]>;
  /**
   * One value per minute for each series of `column`: `values[i]` is the minute starting at
   * `from + i min`, null when the minute has no data; `(to - from) / 1 min` values per series.
   * Throws MetricQueryError as `columns` does.
   */
  series(req: MetricSeriesRequest): Promise<MetricSeries[]>;
}

export interface MetricSeriesRequest {
  projectId: number;
  metrics: MonitorMetric[];
  query: string;
  column: string;
  /** Whole minutes, UTC. */
  from: Date;
  to: Date;
}

export interface MetricSeries {
  /** The series' attributes (its group-by values); {} for a single ungrouped series. */
  attrs: Record<string, string>;
  values: (number | null)[];
}

export class MetricQueryError extends Error {
  constructor(
    readonly kind: 'unknown_metric' | 'invalid_query',
    message: string,
  ) {
    super(message);
    this.name = 'MetricQueryError';
  }
}

export const NO_ENGINE_REASON = 'not evaluated: no metrics query engine is available in this build';
