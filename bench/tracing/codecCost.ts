import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import { sql, type SqlFragment } from '../../packages/server/src/storage/sql';
import { encodeSpans } from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { stageSpans } from '../../packages/server/src/storage/telemetry/spanStaging';
import { TELEMETRY_MIGRATIONS } from '../../packages/server/src/storage/telemetry/schema';
import { buildRequestPool } from '../ingest/requestPool';
import { mergesSettled, openSpanBytesStore } from './benchStore';

/**
 * What a codec choice costs the engine (issue 17, item 2): the realistic spans of `bench/ingest`
 * (distinct traces, normalised and encoded as the server does) inserted through the embedded store
 * in batches of 20,000 rows, then merged until no merge runs; the process's CPU (chDB runs in it)
 * per row while inserting and once merges settled, and the bytes per span after `OPTIMIZE FINAL`.
 * One process per variant (chDB binds one data directory per process): run the variants in turns.
 *
 *   node --import tsx bench/tracing/codecCost.ts --variant before|after [--batches 15] [--alter "<DDL>" ...]
 *
 * `before`: the schema of telemetry migrations 1-10 (the codecs before issue 17's migration 11);
 * `after`: every migration of this build.
 */
const { values: args } = parseArgs({
  options: {
    variant: { type: 'string', default: 'after' },
    batches: { type: 'string', default: '15' },
    'batch-rows': { type: 'string', default: '20000' },
    /** More DDL after the variant's migrations (a codec to try), e.g. --alter "ALTER TABLE spans_data MODIFY COLUMN data String CODEC(ZSTD(6))". */
    alter: { type: 'string', multiple: true, default: [] },
  },
});
const batchRows = Number(args['batch-rows']);
const batches = Number(args.batches);
const lastBefore = 10;

const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
const rows: ReturnType<typeof normalizeTraces> = [];
for (let seed = 1; rows.length < batchRows * batches; seed++)
  for (const body of buildRequestPool({ requests: 20, spansPerRequest: 1000, seed }).bodies)
    rows.push(...normalizeTraces(decodeTracesProto(body), project));
const encoded = Array.from({ length: batches }, (_, i) => encodeSpans(rows.slice(i * batchRows, (i + 1) * batchRows)));

const dir = mkdtempSync(join(tmpdir(), 'b17-codec-cost-'));
const store = openSpanBytesStore(dir);
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });
try {
  if (args.variant === 'before') {
    // The migrations up to 10 only, run by hand (the store's migrate() runs them all).
    await store.query(
      raw(
        `CREATE TABLE IF NOT EXISTS lantern_migrations (version UInt32, name String) ENGINE = MergeTree ORDER BY version`,
      ),
    );
    for (const m of TELEMETRY_MIGRATIONS.filter((x) => x.version <= lastBefore))
      for (const s of m.statements({ spansDays: 30, metricsDays: 30, rollups: 'application' }))
        await store.query(raw(s));
  } else if (args.variant === 'after') await store.migrate();
  else throw new Error('--variant is before or after');
  for (const a of args.alter) await store.query(raw(a));
  const load0 = loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const e of encoded)
    await store.insertStagedSpans([stageSpans(store.stagingDir, { rows: e.rows, index: e.index, data: e.data })]);
  const wall = (performance.now() - t0) / 1000;
  const cpuInsert = process.cpuUsage(cpu0);
  await mergesSettled(store);
  const cpuAll = process.cpuUsage(cpu0);
  const n = encoded.reduce((a, e) => a + e.rows, 0);
  const us = (c: NodeJS.CpuUsage) => ((c.user + c.system) / n).toFixed(1);
  for (const t of ['spans_index', 'spans_data']) await store.query(raw(`OPTIMIZE TABLE ${t} FINAL`));
  const sizes = await store.query<{ table: string; bytes: string }>(
    sql`SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND table IN ('spans_index', 'spans_data') GROUP BY table ORDER BY table`,
  );
  console.log(
    `${args.variant}${args.alter.length ? ` + ${args.alter.join('; ')}` : ''}: ${n} rows, ${(n / wall / 1000).toFixed(1)}k rows/s; engine CPU ${us(cpuInsert)} µs/row inserting, ${us(cpuAll)} once merged; ` +
      sizes.map((s) => `${s.table} ${(Number(s.bytes) / n).toFixed(2)}`).join(', ') +
      ` B/row (load ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)})`,
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
