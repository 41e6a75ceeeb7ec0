import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * Rows per trace id that a stopped (or killed) server left in storage, counted in both span tables
 * by a separate process that opens the data directory with the server's own store (chDB binds a
 * directory to one process, so the test process itself never opens it).
 */
export interface TraceRowCounts {
  index: Map<string, number>;
  data: Map<string, number>;
  /** Rows per trace id as counted by the metric from spans DERIVED_ROWS_METRIC, when configured. */
  derived: Map<string, number>;
  /** Datapoints per trace id of `metrics-proto` requests (traffic.ts, METRICS_ROWS_METRIC). */
  datapoints: Map<string, number>;
}

/** A `metrics_from_spans` counter of every stored row per trace id (durability.ts configures it). */
export const DERIVED_ROWS_METRIC = 'hardening.rows_per_trace';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

export async function storedTraceRowCounts(dataDir: string): Promise<TraceRowCounts> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'packages/testkit/src/hardening/storeCountsMain.ts'), dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`reading ${dataDir} failed (${code}): ${err}`);
  const parsed = JSON.parse(out) as {
    index: [string, number][];
    data: [string, number][];
    derived: [string, number][];
    datapoints: [string, number][];
  };
  return {
    index: new Map(parsed.index),
    data: new Map(parsed.data),
    derived: new Map(parsed.derived),
    datapoints: new Map(parsed.datapoints),
  };
}
