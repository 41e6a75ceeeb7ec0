// Metrics: OTLP metrics ingest (datapoints per minute per series, the catalogue), the metrics
// query compiler and evaluator, and the /api/v1/metrics endpoints. Reads and writes telemetry only
// through TelemetryStore; the query language itself (parser, diagnostics) lives in packages/shared.
export { createMetricsPipeline } from './metricsPipeline';
export { createMetricsStore, type MetricsStore } from './metrics.store';
export { createMetricsQueryService, type MetricsQueryService } from './metricsQuery.service';
export { registerMetricsRoutes } from './metrics.routes';
export { createMetricQueryRunner } from './metricQueryRunner';
export { createPrometheusApi, registerPrometheusRoutes } from './promql';
export { parsePromQL, PromQLError } from './promql/engine';
