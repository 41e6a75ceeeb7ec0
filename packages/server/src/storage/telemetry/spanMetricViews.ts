/**
 * Metrics from spans used to be computed by two materialized views over spans_index
 * (`span_metrics_mv`, `span_metrics_catalog_mv`), created from the config at every start. They are
 * now computed before the engine (metricsFromSpans/, spanMetricWriter.ts), which costs the
 * insert far less (docs/decisions/metrics-from-spans.md); every start drops the views an earlier
 * version left, so their rows are not written twice.
 */
export const SPAN_METRIC_VIEW_PREFIX = 'span_metric';

/** Statements that drop every span-metric view left by an earlier version. */
export function spanMetricViewStatements(existing: readonly string[]): string[] {
  return existing.filter((v) => v.startsWith(SPAN_METRIC_VIEW_PREFIX)).map((v) => `DROP VIEW IF EXISTS ${v}`);
}
