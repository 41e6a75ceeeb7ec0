import { join } from 'node:path';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';

/** The embedded store over `<dir>/ch` as the tracing bench tools open it, without the rollup job. */
export const openBenchStore = (dir: string) =>
  openChdbStore({
    path: join(dir, 'ch'),
    ttl: { spansDays: 30, metricsDays: 30 },
    maxMemoryUsage: 4 * 1024 ** 3,
    maxThreads: 2,
    rollupIntervalMs: 0,
  });
