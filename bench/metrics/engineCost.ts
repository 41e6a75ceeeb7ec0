import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from '../../packages/server/src/storage/sql';
import { openChdbStore, stageDatapoints } from '../../packages/server/src/storage/telemetry';
import { encodeRequest } from '../../packages/server/src/metrics/ingest/prepareMetrics';
import { decodeMetricsWire } from '../../packages/server/src/metrics/ingest/otlpMetricsWire';
import { benchOtlpBodies } from './otlpBodies';

/**
 * The engine's cost per stored datapoint row, and the mapping's: `bench/metrics`'s OTLP bodies
 * (delta counters, 10,000 series) decoded, mapped and encoded as the prepare workers do (timed
 * on their own), then inserted through the embedded store (staged files, one
 * `INSERT ... SELECT FROM file()` per batch, the two rollup views included) into a fresh chDB, one
 * batch after the other. CPU is this process's, which holds chDB, so it counts the engine's
 * parsing, views and merges. Figures: docs/benchmarks.md.
 *
 *   node --import tsx bench/metrics/engineCost.ts [--batch-rows 20000] [--batches 20]
 */
const { values: args } = parseArgs({
  options: {
    'batch-rows': { type: 'string', default: '20000' },
    batches: { type: 'string', default: '20' },
  },
});
const batchRows = Number(args['batch-rows']);
const batches = Number(args.batches);
if (!(batchRows > 0 && batches > 0)) throw new Error('--batch-rows and --batches must be positive');

const { bodies } = benchOtlpBodies({
  series: 10_000,
  stepMs: 60_000,
  hours: Math.ceil((batchRows * batches) / 10_000 / 60),
  perRequest: 5000,
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const chunks = bodies.map((b) => encodeRequest(decodeMetricsWire(b), 1, null, []));
const mapMs = performance.now() - t0;
const mapCpu = process.cpuUsage(cpu0);
const mappedRows = chunks.reduce((n, c) => n + (c.staged?.rows ?? 0), 0);
const text = chunks.map((c) => Buffer.from(c.staged!.data!).toString()).join('');
const lines = text.split('\n').filter(Boolean);
// The earliest point of all: the store puts a batch into the rollups at once only when it holds
// rows older than their watermark (a batch without its earliest time is taken as such).
const minTime = Math.min(...chunks.map((c) => c.staged?.minTime ?? -Infinity));

const dir = mkdtempSync(join(tmpdir(), 'lantern-dp-engine-'));
const store = openChdbStore({
  path: dir,
  ttl: { spansDays: 30, metricsDays: 90 },
  maxMemoryUsage: 2 * 1024 ** 3,
  maxThreads: 2,
});
try {
  await store.migrate();
  const cpu1 = process.cpuUsage();
  const t1 = performance.now();
  for (let b = 0; b < batches; b++) {
    const part = lines.slice(b * batchRows, (b + 1) * batchRows);
    if (part.length === 0) break;
    await store.insertStagedDatapoints([
      stageDatapoints(store.stagingDir, part.join('\n') + '\n', part.length, 0, minTime),
    ]);
  }
  const insertMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu1);
  const inserted = Math.min(lines.length, batches * batchRows);
  const [{ n }] = await store.query<{ n: string }>(sql`SELECT count() AS n FROM datapoint_minutes`);
  const us = (c: NodeJS.CpuUsage, rows: number) => Math.round(((c.user + c.system) / rows) * 100) / 100;
  console.log(
    JSON.stringify(
      {
        mapping: { rows: mappedRows, ms: Math.round(mapMs), cpuUsPerRow: us(mapCpu, mappedRows) },
        insert: {
          rows: inserted,
          batchRows,
          stored: Number(n),
          ms: Math.round(insertMs),
          rowsPerSec: Math.round(inserted / (insertMs / 1000)),
          cpuUsPerRow: us(cpu, inserted),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
