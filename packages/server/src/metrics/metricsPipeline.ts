import type { IngestSignalStats } from '@lantern/shared';
import type { Config } from '../config';
import type { TelemetryStore } from '../storage/telemetry';
import { Batcher, type PreparePool } from '../ingest';
import { createCatalogWriter, createMetricsIngest, CumulativeState, type DatapointBatcher } from './ingest';

/** Cumulative -> delta state entries kept (reference `metrics.cum_to_delta_size`). */
const CUM_TO_DELTA_SIZE = 200_000;

/**
 * Builds metrics ingest: decode and mapping on the prepare pool shared with spans and logs, its
 * own group-commit queue (same limits as spans) over datapoint_minutes.
 */
export function createMetricsPipeline(deps: {
  config: Config;
  telemetry: TelemetryStore;
  pool: PreparePool;
  log: { error(obj: object, msg: string): void };
  onNewMetrics?(projectId: number, names: string[]): void;
  counters(): IngestSignalStats;
}) {
  const c = deps.config.ingest;
  const batcher: DatapointBatcher = new Batcher({
    batchRows: c.batch_rows,
    flushIntervalMs: c.flush_interval_ms,
    queueRows: c.queue_rows,
    queueBytes: c.queue_bytes,
    maxQueueWaitMs: c.max_queue_wait_ms,
    write: (chunks) => deps.telemetry.insertStagedDatapoints(chunks),
    onError: (err, rows) => deps.log.error({ err, rows }, 'datapoint batch insert failed'),
  });
  const ingest = createMetricsIngest({
    batcher,
    pool: deps.pool,
    stagingDir: deps.telemetry.stagingDir,
    queueRows: c.queue_rows,
    queueBytes: c.queue_bytes,
    state: new CumulativeState(CUM_TO_DELTA_SIZE, BigInt(Date.now()) * 1_000_000n),
    catalog: createCatalogWriter(deps.telemetry),
    onNewMetrics: deps.onNewMetrics,
    log: deps.log,
    counters: deps.counters,
    maxBodyBytes: c.max_body_bytes,
  });
  return { ingest, batcher };
}
