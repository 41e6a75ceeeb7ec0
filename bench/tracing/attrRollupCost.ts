import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from '../../packages/server/src/storage/sql';
import { generationStatements } from './generate';
import { openBenchStore } from './benchStore';

/**
 * What the attribute rollup's view (telemetry migration 10) or the bloom filter of attr_values
 * (migration 13) adds to span inserts: the same generated spans inserted in blocks of `--chunk`
 * rows into a fresh store with both and into one without the view (`without`) or without the
 * index (`without-bloom`), in turns, one process per store (chDB binds one data directory per
 * process: run it once per variant, alternating).
 *
 *   node --import tsx bench/tracing/attrRollupCost.ts --variant with|without|without-bloom [--spans 500000] [--chunk 10000]
 */
const { values: args } = parseArgs({
  options: {
    variant: { type: 'string', default: 'with' },
    spans: { type: 'string', default: '500000' },
    chunk: { type: 'string', default: '10000' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'lantern-attr-rollup-'));
const store = openBenchStore(dir);
await store.migrate();
if (args.variant === 'without') await store.query(sql`DROP VIEW span_attr_groups_15m_mv`);
if (args.variant === 'without-bloom') await store.query(sql`ALTER TABLE spans_index DROP INDEX idx_attr_values`);
const statements = generationStatements({
  spans: Number(args.spans),
  endMs: Math.floor(Date.now() / 60_000) * 60_000,
  rangeMs: 24 * 3600_000,
  chunk: Number(args.chunk),
  projectId: 1,
}).filter((_, i) => i % 2 === 0); // spans_index only: the view reads it
const load = loadavg()[0];
const t0 = performance.now();
for (const s of statements) await store.query(s);
const ms = performance.now() - t0;
await store.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `${args.variant}: ${args.spans} spans in blocks of ${args.chunk}: ${ms.toFixed(0)} ms, ${((ms * 1000) / Number(args.spans)).toFixed(2)} µs/span (load ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)})`,
);
