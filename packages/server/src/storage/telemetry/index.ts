// Telemetry storage: spans (and later logs and metrics) in embedded chDB or a remote ClickHouse,
// behind one TelemetryStore. Owns the schema and its migrations; knows nothing of HTTP or OTLP.
import type { Config } from '../../config';
import { openChdbStore } from './chdbStore';
import { openClickHouseStore } from './clickhouseStore';
import { shareIdenticalReads } from './sharedReads';
import type { TelemetryStore } from './telemetryStore';
import { join } from 'node:path';

export { StoreQueryError, StoreUnavailableError, type InsertTable, type TelemetryStore } from './telemetryStore';
export { openChdbStore } from './chdbStore';
export { openClickHouseStore } from './clickhouseStore';
export { freshSchema } from './migrate';
export { ERROR_ARRIVALS_TABLE } from './errorArrivals';
export { SPAN_ARRIVALS_TABLE } from './spanArrivals';
export { SPAN_SAMPLE_K, SPAN_SAMPLE_SCALE, SPAN_SAMPLE_TABLE } from './spanSample';
export { SPAN_SYSTEMS_LAG_MS, spanSystemsInsert } from './spanSystemRollup';
export { durationBin, SPAN_DURATIONS_TABLE, spanDurationsInsert } from './spanDurationRollup';
export { createDatapointRollups } from './datapointRollups';
export { foldJournalPending } from './datapointFoldWriter';
export { ROLLUP_STATE_TABLE } from './metricsSchema';
export { encodeSpans, type EncodedSpans, type SpanData } from './spanRowEncoding';
export type { StagedSpans } from './spanStaging';
export type { FoldedSpanMetrics, SpanMetricsModel } from './spanMetricRows';
import type { SpanMetricsModel } from './spanMetricRows';
export {
  datapointHead,
  datapointTail,
  datapointValues,
  stageDatapoints,
  unstageDatapoints,
  type DatapointLines,
  type StagedDatapoints,
} from './datapointStaging';
export { tsv } from './tsvText';
export { FoldSeries } from './foldSeries';
export { linesText } from './datapointRecords';

/**
 * `spanMetrics`: what writes the metrics from spans (`spanMetricsModel` of metricsFromSpans/, from
 * the config's definitions); null: none.
 */
export function openTelemetryStore(config: Config, spanMetrics: SpanMetricsModel | null): TelemetryStore {
  const common = {
    ttl: { spansDays: config.retention.spans_days, metricsDays: config.retention.metrics_days },
    maxMemoryUsage: config.storage.ch.max_memory_usage,
    maxThreads: config.storage.ch.max_threads,
    spanMetrics,
  };
  return shareIdenticalReads(
    config.storage.ch.url
      ? openClickHouseStore({ url: config.storage.ch.url, cluster: config.storage.ch.cluster, ...common })
      : openChdbStore({ path: join(config.data_dir, 'ch'), foldMaxRows: config.metrics.fold_max_rows, ...common }),
  );
}
