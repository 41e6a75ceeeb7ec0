import type { IngestSignalStats } from '@lantern/shared';
import type { Config } from '../config';
import type { TelemetryStore } from '../storage/telemetry';
import { Batcher, type PreparePool } from '../ingest';
import { createCatalogWriter, createMetricsIngest, CumulativeState, type DatapointBatcher } from './ingest';
import { PREPARE_METRICS_JOB } from './ingest/prepareMetrics';

/** Cumulative -> delta state entries kept (reference `metrics.cum_to_delta_size`). */
const CUM_TO_DELTA_SIZE = 200_000;

/**
 * Datapoint batches and queue hold this many times `ingest.batch_rows` / `queue_rows`: a
 * datapoint row is about a tenth of a span row's bytes, and the engine's cost per row falls with
 * the batch (bench/metrics/engineCost.ts: ~14 µs a row in batches of 20k, ~6 in batches of 200k,
 * the two rollup views included; docs/benchmarks.md). Queued chunks are staged files, so the
 * memory they hold stays small; `queue_bytes` still bounds them.
 */
export const DATAPOINT_ROWS_FACTOR = 10;

/** Prometheus's `max_samples_per_send` default: a batch of this many datapoints goes to the fold at once. */
const FOLD_EAGER_ROWS = 500;

/**
 * Builds metrics ingest: decode and mapping on the prepare pool shared with spans and logs, its
 * own group-commit queue (same limits as spans) over datapoint_minutes.
 */
export function createMetricsPipeline(deps: {
  config: Config;
  telemetry: TelemetryStore;
  pool: PreparePool;
  log: { error(obj: object, msg: string): void };
  onNewMetrics?: (projectId: number, names: string[]) => void;
  counters: () => IngestSignalStats;
}) {
  const c = deps.config.ingest;
  const fold = deps.telemetry.kind === 'chdb';
  const batcher: DatapointBatcher = new Batcher({
    // The embedded store's write is a journal append and an in-memory fold, not an insert
    // (docs/decisions/metrics-ingest-fold.md): batches of `batch_rows`, and one of
    // FOLD_EAGER_ROWS (a remote write request of Prometheus's default size) is written as soon as
    // the writer is free instead of waiting for the flush interval: a sender waits for each
    // answer, so the wait bounds its rate (four senders of 2,000 samples that each waited 200 ms
    // for a lone request sent 35k samples/s at most).
    batchRows: c.batch_rows * (fold ? 1 : DATAPOINT_ROWS_FACTOR),
    ...(fold ? { eagerRows: Math.min(c.batch_rows / 8, FOLD_EAGER_ROWS) } : {}),
    flushIntervalMs: c.flush_interval_ms,
    queueRows: c.queue_rows * DATAPOINT_ROWS_FACTOR,
    queueBytes: c.queue_bytes,
    maxQueueWaitMs: c.max_queue_wait_ms,
    write: (chunks) => deps.telemetry.insertStagedDatapoints(chunks),
    onError: (err, rows) => deps.log.error({ err, rows }, 'datapoint batch insert failed'),
  });
  const ingest = createMetricsIngest({
    batcher,
    pool: deps.pool,
    stagingDir: deps.telemetry.stagingDir,
    queueRows: c.queue_rows * DATAPOINT_ROWS_FACTOR,
    queueBytes: c.queue_bytes,
    state: new CumulativeState(CUM_TO_DELTA_SIZE, BigInt(Date.now()) * 1_000_000n),
    catalog: createCatalogWriter(deps.telemetry),
    onNewMetrics: deps.onNewMetrics,
    log: deps.log,
    counters: deps.counters,
    maxBodyBytes: c.max_body_bytes,
    dropAttrs: deps.config.metrics.drop_attrs,
  });
  // Each worker loads the metrics job's modules on its first metrics task (seconds under tsx on
  // a busy machine): an empty task per thread now, so the first requests after a start do not
  // wait for that (the durability check sends them right away and kills the server soon after).
  for (let i = 0; i < c.workers; i++)
    void deps.pool
      .runJob(PREPARE_METRICS_JOB, {
        format: 'protobuf',
        body: new Uint8Array(0),
        projectId: 0,
        stagingDir: null,
        dropAttrs: [],
      })
      .catch((err: unknown) => deps.log.error({ err }, 'metrics prepare worker warm-up failed'));
  return { ingest, batcher };
}
