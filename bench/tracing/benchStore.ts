import { join } from 'node:path';
import { sql } from '../../packages/server/src/storage/sql';
import { openChdbStore, type TelemetryStore } from '../../packages/server/src/storage/telemetry';
import { DEFAULT_METRICS_FROM_SPANS, spanMetricsModel } from '../../packages/server/src/metricsFromSpans';

const openAt = (path: string, spanMetrics = true) =>
  openChdbStore({
    path,
    ttl: { spansDays: 30, metricsDays: 30 },
    maxMemoryUsage: 4 * 1024 ** 3,
    maxThreads: 2,
    rollupIntervalMs: 0,
    spanMetrics: spanMetrics ? spanMetricsModel(DEFAULT_METRICS_FROM_SPANS) : null,
  });

/** The embedded store over `<dir>/ch` as the tracing bench tools open it, without the rollup job. */
export const openBenchStore = (dir: string) => openAt(join(dir, 'ch'));

/**
 * The embedded store at `path` for the storage measurements (bytesPerSpan.ts, codecCost.ts): no
 * rollup job, no metrics from spans (their datapoints are not span bytes).
 */
export const openSpanBytesStore = (path: string) => openAt(path, false);

/** Waits until no merge has run for 3 s: merges after the last insert belong to its rows too. */
export async function mergesSettled(store: TelemetryStore): Promise<void> {
  for (let idle = 0; idle < 6;) {
    await new Promise((r) => setTimeout(r, 500));
    const [{ n }] = await store.query<{ n: string }>(sql`SELECT count() AS n FROM system.merges`);
    idle = Number(n) === 0 ? idle + 1 : 0;
  }
}
