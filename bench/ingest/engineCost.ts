import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import { ident, sql, type SqlFragment } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { encodeSpans } from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { stageSpans } from '../../packages/server/src/storage/telemetry/spanStaging';
import { buildRequestPool } from './requestPool';
import {
  compileSpanMetrics,
  DEFAULT_METRICS_FROM_SPANS,
  spanMetricPoints,
  spanMetricsModel,
} from '../../packages/server/src/metricsFromSpans';

/**
 * The engine's CPU per stored row, split the ways that matter for ingest cost: per table, and with
 * or without background merges. Inserts the bench's rows (pre-encoded and staged, as the server
 * does) through the embedded store into a fresh chDB, one batch after the other, then waits for
 * merges to settle. CPU is this process's (chDB runs in it), so it includes the engine's parsing,
 * merging and materialized-view threads. Figures: docs/benchmarks.md.
 *
 *   node --import tsx bench/ingest/engineCost.ts [--tables both|index|data] [--no-merges] [--batches 30] [--batch-rows 20000] [--span-metrics on|off] [--drop-view <name>]... [--sql <statement>]...
 *
 * `--drop-view` (repeatable) drops a materialized view after the migrations, to price it (run with and
 * without in turns); `--sql` (repeatable) runs any statement there, e.g. an ALTER to price a codec
 * or a table setting.
 * `--span-metrics off` runs without metrics_from_spans (on: the built-in definitions, folded per
 * 1,000-row request before the timed inserts as the prepare workers do, and written with each batch).
 */
const { values: args } = parseArgs({
  options: {
    tables: { type: 'string', default: 'both' },
    'no-merges': { type: 'boolean', default: false },
    batches: { type: 'string', default: '30' },
    'batch-rows': { type: 'string', default: '20000' },
    'span-metrics': { type: 'string', default: 'on' },
    'drop-view': { type: 'string', multiple: true, default: [] },
    sql: { type: 'string', multiple: true, default: [] },
  },
});
/** A statement given on the command line, as written. */
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });
const batches = Number(args.batches);
const batchRows = Number(args['batch-rows']);
if (!['both', 'index', 'data'].includes(args.tables)) throw new Error('--tables is both, index or data');
if (!['on', 'off'].includes(args['span-metrics'])) throw new Error('--span-metrics is on or off');
if (!(batches > 0 && batchRows > 0)) throw new Error('--batches and --batch-rows must be positive');

const pool = buildRequestPool({ requests: 32, spansPerRequest: 1000, seed: 1 });
const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
const rows = pool.bodies.flatMap((b) => normalizeTraces(decodeTracesProto(b), project));
const batchesOfRows = [0, 1, 2].map((i) =>
  Array.from({ length: batchRows }, (_, j) => rows[(i * batchRows + j) % rows.length]),
);
const encoded = batchesOfRows.map((b) => encodeSpans(b));
// Metrics from spans are folded per request on the prepare workers (1,000 rows each here, as the
// bench's requests): timed on their own, then handed to the store with each batch as the server does.
const spanMetrics = args['span-metrics'] === 'on' ? compileSpanMetrics(DEFAULT_METRICS_FROM_SPANS) : null;
const foldCpu0 = process.cpuUsage();
const points = batchesOfRows.map((b) =>
  spanMetrics
    ? Array.from({ length: Math.ceil(b.length / 1000) }, (_, k) =>
        spanMetricPoints(spanMetrics, b.slice(k * 1000, (k + 1) * 1000)),
      )
    : [],
);
const foldCpu = process.cpuUsage(foldCpu0);

const dir = mkdtempSync(join(tmpdir(), 'lantern-engine-cost-'));
const store = openChdbStore({
  path: dir,
  ttl: { spansDays: 30, metricsDays: 90 },
  maxMemoryUsage: 4 * 1024 ** 3,
  maxThreads: 2,
  spanMetrics: args['span-metrics'] === 'off' ? null : spanMetricsModel(DEFAULT_METRICS_FROM_SPANS),
});
const none = Buffer.alloc(0);
const empty = { rows: 0, indexBytes: 0, dataBytes: 0, file: null, bytes: { index: none, data: none } };
try {
  await store.migrate();
  if (args['no-merges']) await store.query(sql`SYSTEM STOP MERGES`);
  for (const view of args['drop-view']) await store.query(sql`DROP VIEW ${ident(view)}`);
  for (const statement of args.sql) await store.query(raw(statement));
  const insert = (i: number) => {
    const e = encoded[i];
    const chunk = stageSpans(store.stagingDir, {
      rows: e.rows,
      index: args.tables === 'data' ? none : e.index,
      data: args.tables === 'index' ? none : e.data,
    });
    // The batch's requests: the first chunk carries the spans, each carries its own points.
    return store.insertStagedSpans(
      points[i].length
        ? points[i].map((p, k) => (k === 0 ? { ...chunk, points: p } : { ...empty, points: p }))
        : [chunk],
    );
  };
  await insert(0); // the first insert pays for loading code
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) await insert(i % encoded.length);
  const wall = (performance.now() - t0) / 1000;
  const cpuInsert = process.cpuUsage(cpu0);
  // Merges still running after the last insert belong to these rows too.
  for (let idle = 0; idle < 6;) {
    await new Promise((r) => setTimeout(r, 500));
    const [{ n }] = await store.query<{ n: string }>(sql`SELECT count() AS n FROM system.merges`);
    idle = Number(n) === 0 ? idle + 1 : 0;
  }
  const cpuAll = process.cpuUsage(cpu0);
  const n = batches * batchRows;
  const us = (c: NodeJS.CpuUsage) => ((c.user + c.system) / n).toFixed(1);
  const parts = (
    await store.query<{ table: string; parts: string }>(
      sql`SELECT table, count() AS parts FROM system.parts WHERE active AND (table LIKE 'span%' OR table LIKE 'datapoint%') GROUP BY table ORDER BY table`,
    )
  )
    .map((p) => `${p.table} ${p.parts}`)
    .join(', ');
  console.log(
    `tables ${args.tables}${args['no-merges'] ? ', merges stopped' : ''}, metrics from spans ${args['span-metrics']}${args['drop-view'].length ? `, without ${args['drop-view'].join(', ')}` : ''}${args.sql.length ? `, after ${args.sql.join('; ')}` : ''}; ${batches} batches of ${batchRows} rows`,
  );
  console.log(`insert rate      ${(n / wall / 1000).toFixed(1)}k rows/s (one batch at a time)`);
  console.log(`engine CPU       ${us(cpuInsert)} µs/row while inserting, ${us(cpuAll)} µs/row once merges settled`);
  if (spanMetrics) {
    const folded = batchesOfRows.length * batchRows;
    const pointRows = points.map((p) => p.reduce((n, l) => n + (l?.heads.length ?? 0), 0));
    console.log(
      `span metrics     folding ${((foldCpu.user + foldCpu.system) / folded).toFixed(1)} µs/row on the workers; ${pointRows.join(', ')} points per batch before the batch's fold`,
    );
  }
  const failed = batchesOfRows.flat().filter((r) => r.statusCode === 'error' && r.eventName === '').length;
  console.log(`failed spans     ${((100 * failed) / (batchesOfRows.length * batchRows)).toFixed(1)}% of the rows`);
  console.log(`active parts     ${parts}`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
