import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import { ident, param, sql, type SqlFragment } from '../../packages/server/src/storage/sql';
import type { TelemetryStore } from '../../packages/server/src/storage/telemetry';
import { encodeSpans } from '../../packages/server/src/storage/telemetry/spanRowEncoding';
import { stageSpans } from '../../packages/server/src/storage/telemetry/spanStaging';
import { buildRequestPool } from '../ingest/requestPool';
import { openSpanBytesStore } from './benchStore';
import { generationStatements } from './generate';

/**
 * Bytes per stored span (issue 17, item 2): loads a data set into a fresh embedded store (or opens
 * an existing one), merges every span table to one part per partition (`OPTIMIZE ... FINAL`) and
 * prints what each table and each column takes on disk, per span (spans = spans_index rows).
 *
 *   node --import tsx bench/tracing/bytesPerSpan.ts --set tracing|ingest [--spans 2000000] [--dir /tmp/b17-x] [--keep]
 *   node --import tsx bench/tracing/bytesPerSpan.ts --dir <data_dir>/ch            # an existing store: report only
 *   ... --codecs      # also: each candidate codec of the main columns, on a copy of the column
 *
 * `tracing`: the rows of `bench/tracing` (generate.ts, 24 h). `ingest`: the realistic spans of
 * `bench/ingest` (requestPool.ts: 1,000-span requests of the shop's services, 10 resource attributes
 * and 10-16 span attributes a span, events as rows), normalised and encoded as the server does and
 * inserted through the store in batches of 20,000 rows, without metrics from spans.
 */
const { values: args } = parseArgs({
  options: {
    set: { type: 'string' },
    spans: { type: 'string', default: '2000000' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    codecs: { type: 'boolean', default: false },
  },
});
const SPAN_TABLES = [
  'spans_index',
  'spans_data',
  'span_groups_1m',
  'span_groups_1h',
  'span_attr_groups_15m',
  'spans_sample',
];
const spans = Number(args.spans);
const dir = args.dir ?? `/tmp/b17-bytes-${args.set ?? 'x'}-${process.pid}`;
if (args.set && existsSync(join(dir, 'metadata'))) throw new Error(`${dir} holds a store already`);
if (!args.set && !existsSync(join(dir, 'metadata'))) throw new Error(`no store in ${dir}; give --set to load one`);
mkdirSync(dir, { recursive: true });

const store = openSpanBytesStore(dir);

async function loadTracing(s: TelemetryStore) {
  const endMs = Math.floor(Date.now() / 60_000) * 60_000;
  const statements = generationStatements({ spans, endMs, rangeMs: 24 * 3600_000, chunk: 1_000_000, projectId: 1 });
  for (const q of statements) await s.query(q);
}

async function loadIngest(s: TelemetryStore) {
  const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
  const batchRows = 20_000;
  let pending: ReturnType<typeof normalizeTraces> = [];
  let stored = 0;
  const flush = async () => {
    const e = encodeSpans(pending);
    await s.insertStagedSpans([stageSpans(s.stagingDir, { rows: e.rows, index: e.index, data: e.data })]);
    stored += pending.length;
    pending = [];
  };
  // Requests of distinct traces (one seed per 50 requests: a pool of 50,000 spans at a time).
  for (let seed = 1; stored + pending.length < spans; seed++) {
    const pool = buildRequestPool({ requests: 50, spansPerRequest: 1000, seed });
    for (const body of pool.bodies) {
      pending.push(...normalizeTraces(decodeTracesProto(body), project));
      if (pending.length >= batchRows) await flush();
      if (stored + pending.length >= spans) break;
    }
  }
  if (pending.length) await flush();
}

/** Scratch DDL of the codec trials, from our own constant lists and the engine's names: no user input. */
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });

type ColumnRow = { table: string; name: string; type: string; codec: string; c: string; u: string };

async function report(s: TelemetryStore) {
  // A changed TTL rewrites the stored parts in the background (migration 22's recompression): done first.
  for (;;) {
    const [{ n }] = await s.query<{ n: string }>(sql`SELECT count() AS n FROM system.mutations WHERE NOT is_done`);
    if (n === '0') break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const t of SPAN_TABLES) await s.query(sql`OPTIMIZE TABLE ${ident(t)} FINAL`);
  const [{ n }] = await s.query<{ n: string }>(sql`SELECT count() AS n FROM spans_index`);
  const per = (b: string | number) => (Number(b) / Number(n)).toFixed(2);
  const tables = await s.query<{ table: string; rows: string; parts: string; bytes: string }>(
    sql`SELECT table, sum(rows) AS rows, count() AS parts, sum(bytes_on_disk) AS bytes FROM system.parts
      WHERE active AND database = currentDatabase() AND table LIKE 'span%' GROUP BY table ORDER BY table`,
  );
  const total = tables.reduce((a, t) => a + Number(t.bytes), 0);
  console.log(`\n${n} spans (spans_index rows); ${per(total)} bytes a span on disk in all span tables\n`);
  console.log('| table | rows | parts | bytes on disk | B/span |\n| --- | ---: | ---: | ---: | ---: |');
  for (const t of tables) console.log(`| ${t.table} | ${t.rows} | ${t.parts} | ${t.bytes} | ${per(t.bytes)} |`);
  const cols = await s.query<ColumnRow>(
    sql`SELECT table, name, type, compression_codec AS codec, data_compressed_bytes AS c, data_uncompressed_bytes AS u
      FROM system.columns WHERE database = currentDatabase() AND table LIKE 'span%' AND data_compressed_bytes > 0
      ORDER BY table, data_compressed_bytes DESC`,
  );
  console.log(
    '\n| table | column | type | codec | compressed | uncompressed | B/span |\n| --- | --- | --- | --- | ---: | ---: | ---: |',
  );
  for (const c of cols)
    if (Number(c.c) / Number(n) >= 0.01)
      console.log(`| ${c.table} | ${c.name} | ${c.type} | ${c.codec} | ${c.c} | ${c.u} | ${per(c.c)} |`);
  // Skip indexes are in the tables' bytes on disk above; each one's share:
  const indexes = await s.query<{ table: string; name: string; type: string; c: string }>(
    sql`SELECT table, name, type_full AS type, data_compressed_bytes AS c FROM system.data_skipping_indices
      WHERE database = currentDatabase() AND table LIKE 'span%' ORDER BY table, name`,
  );
  console.log('\n| table | skip index | type | bytes | B/span |\n| --- | --- | --- | ---: | ---: |');
  for (const x of indexes) console.log(`| ${x.table} | ${x.name} | ${x.type} | ${x.c} | ${per(x.c)} |`);
  return Number(n);
}

/** Candidate codecs per column (type, codecs); each is a column of a scratch table in the table's order. */
const CANDIDATES: Record<string, Record<string, string[]>> = {
  spans_index: {
    trace_id: ['LZ4', 'ZSTD(1)', 'ZSTD(3)'],
    id: ['LZ4', 'ZSTD(1)'],
    parent_id: ['LZ4', 'ZSTD(1)'],
    time: ['Delta, LZ4', 'Delta, ZSTD(1)', 'Delta, ZSTD(3)', 'DoubleDelta, ZSTD(1)'],
    duration: ['T64, LZ4', 'T64, ZSTD(1)', 'T64, ZSTD(3)'],
    host_name: ['LZ4', 'ZSTD(1)', 'ZSTD(3)', 'LC:LZ4', 'LC:ZSTD(1)'],
    service_name: ['LC:LZ4', 'LC:ZSTD(1)'],
    deployment_environment: ['LZ4', 'ZSTD(3)', 'LC:ZSTD(1)'],
    attr_keys: ['LZ4', 'ZSTD(1)', 'ZSTD(3)', 'LZ4HC(9)'],
    attr_values: ['LZ4', 'ZSTD(1)', 'ZSTD(3)', 'ZSTD(6)', 'ZSTD(9)', 'ZSTD(15)', 'LZ4HC(9)'],
    name: ['LZ4', 'ZSTD(3)'],
    display_name: ['LZ4', 'ZSTD(3)'],
    status_code: ['LZ4', 'ZSTD(1)', 'ZSTD(3)'],
    status_message: ['LZ4', 'ZSTD(3)'],
    kind: ['LZ4', 'ZSTD(3)'],
    type: ['LZ4', 'ZSTD(3)'],
    db_statement: ['LZ4', 'ZSTD(1)', 'ZSTD(3)'],
    db_system: ['LZ4', 'ZSTD(3)'],
    db_operation: ['LZ4', 'ZSTD(3)'],
    db_sql_table: ['LZ4', 'ZSTD(3)'],
    count: ['LZ4', 'ZSTD(1)'],
    group_id: ['Delta, LZ4', 'Delta, ZSTD(1)'],
    log_message: ['LZ4', 'ZSTD(1)', 'ZSTD(3)'],
  },
  spans_data: {
    data: ['ZSTD(1)', 'ZSTD(3)', 'ZSTD(6)', 'ZSTD(9)', 'ZSTD(12)', 'ZSTD(15)', 'ZSTD(19)'],
    id: ['T64, ZSTD(1)', 'ZSTD(1)', 'LZ4'],
    parent_id: ['ZSTD(1)', 'ZSTD(3)'],
    time: ['Delta, ZSTD(1)', 'Delta, ZSTD(3)', 'DoubleDelta, ZSTD(1)', 'T64, ZSTD(1)'],
    trace_id: ['ZSTD(1)', 'ZSTD(3)'],
  },
  span_attr_groups_15m: {
    duration: ['ZSTD(1)', 'ZSTD(3)', 'ZSTD(6)', 'ZSTD(9)', 'ZSTD(15)'],
    max_duration: ['ZSTD(1)', 'T64, ZSTD(1)'],
  },
  span_groups_1m: { duration: ['ZSTD(1)', 'ZSTD(3)', 'ZSTD(6)', 'ZSTD(9)', 'ZSTD(15)'] },
};

async function tryCodecs(s: TelemetryStore, n: number) {
  console.log('\n| table | column | codec | compressed | B/span |\n| --- | --- | --- | ---: | ---: |');
  for (const [table, columns] of Object.entries(CANDIDATES)) {
    const key = await s.query<{ sorting_key: string; partition_key: string }>(
      sql`SELECT sorting_key, partition_key FROM system.tables WHERE database = currentDatabase() AND name = ${param.string(table)}`,
    );
    const types = new Map(
      (
        await s.query<{ name: string; type: string }>(
          sql`SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = ${param.string(table)}`,
        )
      ).map((c) => [c.name, c.type]),
    );
    // The sorting key's columns, and `time` for the partition key.
    const keyColumns = key[0].sorting_key.split(', ');
    if (!keyColumns.includes('time')) keyColumns.push('time');
    const defs: string[] = keyColumns.map((c) => `${c} ${types.get(c)}`);
    const selects: string[] = [...keyColumns];
    const names: [string, string, string][] = [];
    for (const [column, codecs] of Object.entries(columns)) {
      const type = types.get(column)!.replace(/^LowCardinality\((.*)\)$/, '$1');
      for (const codec of codecs) {
        const name = `c${names.length}`;
        const lc = codec.startsWith('LC:');
        defs.push(`${name} ${lc ? `LowCardinality(${type})` : type} CODEC(${lc ? codec.slice(3) : codec})`);
        selects.push(column);
        names.push([name, column, codec]);
      }
    }
    const scratch = `codecs_${table}`;
    await s.query(sql`DROP TABLE IF EXISTS ${ident(scratch)}`);
    await s.query(
      raw(
        `CREATE TABLE ${scratch} (${defs.join(', ')}) ENGINE = MergeTree PARTITION BY ${key[0].partition_key} ORDER BY (${key[0].sorting_key})` +
          (table === 'spans_data' ? ' SETTINGS index_granularity = 2048' : ''),
      ),
    );
    const from = table.startsWith('span_') ? `(SELECT * FROM ${table} FINAL)` : table;
    await s.query(raw(`INSERT INTO ${scratch} SELECT ${selects.join(', ')} FROM ${from}`));
    await s.query(sql`OPTIMIZE TABLE ${ident(scratch)} FINAL`);
    const sizes = new Map(
      (
        await s.query<{ name: string; c: string }>(
          sql`SELECT name, data_compressed_bytes AS c FROM system.columns WHERE database = currentDatabase() AND table = ${param.string(scratch)}`,
        )
      ).map((r) => [r.name, r.c]),
    );
    for (const [name, column, codec] of names)
      console.log(
        `| ${table} | ${column} | ${codec} | ${sizes.get(name)} | ${(Number(sizes.get(name)) / n).toFixed(2)} |`,
      );
    await s.query(sql`DROP TABLE ${ident(scratch)}`);
  }
}

try {
  await store.migrate();
  const t0 = performance.now();
  if (args.set === 'tracing') await loadTracing(store);
  else if (args.set === 'ingest') await loadIngest(store);
  else if (args.set) throw new Error('--set is tracing or ingest');
  if (args.set) console.log(`loaded ${args.set} in ${((performance.now() - t0) / 1000).toFixed(0)} s into ${dir}`);
  const n = await report(store);
  if (args.codecs) await tryCodecs(store, n);
} finally {
  await store.close();
  if (args.set && !args.keep) rmSync(dir, { recursive: true, force: true });
}
