import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import type * as Chdb from 'chdb';

/**
 * spans_data.data under each ZSTD level (issue 39, part 3): a tenth of the traces of a store
 * (`cityHash64(trace_id) % 10 = 0`, whole traces, in spans_data's order and granules) copied into a
 * scratch table of that codec and merged; prints the column's bytes per row and the process's CPU
 * for the copy and the merge (two compressions; the source read is the same for every level).
 *
 *   node --import tsx bench/tracing/dataLevels.ts --dir <data_dir>/ch [--levels 'ZSTD(1),ZSTD(9)']
 *
 * The store must not be open in another process (chDB binds a data directory to one process); the
 * scratch table is dropped at the end.
 */
const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    levels: { type: 'string', default: 'ZSTD(1),ZSTD(3),ZSTD(6),ZSTD(9),ZSTD(12),ZSTD(15)' },
  },
});
if (!args.dir) throw new Error('--dir <store> is required');
const { Session } = createRequire(import.meta.url)('chdb') as typeof Chdb;
const session = new Session(args.dir);
const q = (text: string) => session.query(text, 'TSV').trim();
for (const codec of args.levels.split(',')) {
  if (!/^(ZSTD|LZ4HC)\(\d+\)$|^LZ4$/.test(codec)) throw new Error(`not a codec: ${codec}`);
  q(`DROP TABLE IF EXISTS data_levels_scratch`);
  q(`CREATE TABLE data_levels_scratch (project_id UInt32, trace_id UUID, id UInt64, time DateTime64(9, 'UTC'), data String CODEC(${codec}))
    ENGINE = MergeTree PARTITION BY toDate(time) ORDER BY (project_id, trace_id, id) SETTINGS index_granularity = 2048`);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  q(
    `INSERT INTO data_levels_scratch SELECT project_id, trace_id, id, time, data FROM spans_data WHERE cityHash64(trace_id) % 10 = 0 SETTINGS max_threads = 1`,
  );
  q(`OPTIMIZE TABLE data_levels_scratch FINAL`);
  const cpu = process.cpuUsage(c0);
  const [n, bytes] = q(`SELECT (SELECT count() FROM data_levels_scratch), sum(data_compressed_bytes) FROM system.columns
    WHERE database = currentDatabase() AND table = 'data_levels_scratch' AND name = 'data'`).split('\t');
  console.log(
    `${codec}\t${n} rows\t${(Number(bytes) / Number(n)).toFixed(2)} B/row\t${((performance.now() - t0) / 1000).toFixed(1)} s wall\t${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU-s`,
  );
}
q(`DROP TABLE IF EXISTS data_levels_scratch`);
