// Metrics from spans (`metrics_from_spans`): what such a metric is (its definition and expression
// language) and how its datapoints are computed from span rows, before the engine. Storage writes
// and journals the points (storage/telemetry/spanMetricWriter.ts) with the model it is handed at
// start-up (`spanMetricsModel`); ingest computes a request's points on its prepare worker.
export {
  DEFAULT_METRICS_FROM_SPANS,
  metricsFromSpansSchema,
  spanMetricViewKey,
  type SpanMetricDefinition,
} from './metricsFromSpans';
export { parseAliased, parseSpanExpr, SPAN_COLUMNS, SpanExprError, type SpanExpr } from './spanMetricExpr';
export { compileSpanMetrics, spanMetricPoints, spanMetricsModel, type CompiledSpanMetrics } from './spanMetricPoints';
