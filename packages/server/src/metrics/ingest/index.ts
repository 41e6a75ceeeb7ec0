// Metrics ingest: OTLP metrics in, datapoint rows and catalogue entries out (reference ingest §5).
// Shares the trace ingest transports, auth and group commit; never answers before the commit.
export { createMetricsIngest, type DatapointBatcher, type MetricsIngest, type PromWriteIngest } from './metricsIngest';
export { createCatalogWriter, type MetricsCatalogWriter } from './catalog';
export { CumulativeState } from './cumulativeState';
export { normalizeUnit } from './units';
export type { DatapointRow, MetricInfo } from './datapointRows';
