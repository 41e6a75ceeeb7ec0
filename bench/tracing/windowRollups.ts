/**
 * The window rollup of telemetry migration 21 (issue 42) on a store of bench/tracing/run.ts:
 * `migrate()` applies the migration (a CREATE TABLE); then the job (tracing/query/windowRollupJob.ts:
 * the rows per duration bin, `span_durations_5m`) runs until it has rolled every closed window up,
 * each run timed (the backfill a server's leader does after the upgrade, a run a minute, off the
 * insert path). Then, paired, alternating, `--runs` each, Explore's duration heatmap (24 h and 7 d,
 * all systems, no filter) as served (the rows, the spans of the rest) and from the spans alone, both
 * answers compared bucket by bucket.
 *
 *   node --import tsx bench/tracing/windowRollups.ts --data-dir /path/to/copy [--runs 5] [--ranges 24h,7d]
 *
 * Writes into the store (use a copy); no server may be running on the directory.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ident, sql } from '../../packages/server/src/storage/sql';
import { durationHeatmapSql, heatmapBucketMs } from '../../packages/server/src/tracing/attrDeltas/attrDeltasSql';
import { heatmapRollupRanges } from '../../packages/server/src/tracing/attrDeltas/heatmapRollup';
import { compileQuery } from '../../packages/server/src/tracing/query/compile';
import { createDurationRollupJob } from '../../packages/server/src/tracing/query/windowRollupJob';
import { openBenchStore } from './benchStore';
import { DEFAULT_QUERY } from './filteredCases';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '5' },
    ranges: { type: 'string', default: '24h,7d' },
    'skip-job': { type: 'boolean', default: false },
  },
});
const dir = args['data-dir'];
if (!dir) throw new Error('--data-dir is required (a copy of a store bench/tracing/run.ts loaded)');
const RANGES: Record<string, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
const endMs = (JSON.parse(readFileSync(`${dir}/bench-tracing.json`, 'utf8')) as { endMs: number }).endMs;
const store = openBenchStore(dir);
try {
  const m0 = performance.now();
  await store.migrate();
  console.log(`migrations: ${Math.round(performance.now() - m0)} ms`);
  if (!args['skip-job'])
    for (const [name, create, table] of [['span durations', createDurationRollupJob, 'span_durations_5m']] as const) {
      const job = create({ telemetry: store, log: pino({ level: 'warn' }) });
      const t0 = performance.now();
      for (let run = 1; ; run++) {
        const t = performance.now();
        const done = await job.run(new Date());
        const ms = Math.round(performance.now() - t);
        if (!done) break;
        console.log(
          `${name} run ${run}: ${done.from.toISOString()} .. ${done.to.toISOString()}, late ${done.late}: ${ms} ms`,
        );
      }
      const [r] = await store.query<{ rows: string }>(sql`SELECT toString(count()) AS rows FROM ${ident(table)}`);
      console.log(`${name}: rolled up in ${Math.round(performance.now() - t0)} ms, ${r.rows} rows`);
    }
  const q = compileQuery(DEFAULT_QUERY, 'filters', { minutes: 1 });
  for (const range of args.ranges.split(',')) {
    const lt = new Date(Math.floor(endMs / 60_000) * 60_000);
    const scope = { projectId: 1, gte: new Date(lt.getTime() - RANGES[range]), lt, systems: ['all'] };
    const served = async () => {
      const rolled = await heatmapRollupRanges(store, scope, q, heatmapBucketMs(scope));
      return store.query<{ t: unknown; b: unknown; n: unknown }>(durationHeatmapSql(scope, q, rolled).sql);
    };
    const spans = () => store.query<{ t: unknown; b: unknown; n: unknown }>(durationHeatmapSql(scope, q).sql);
    const ms: Record<string, number[]> = { rows: [], spans: [] };
    let answers: string[] = [];
    for (let i = 0; i < Number(args.runs); i++)
      for (const [name, fn] of [
        ['rows', served],
        ['spans', spans],
      ] as const) {
        const t = performance.now();
        const rows = await fn();
        ms[name].push(Math.round(performance.now() - t));
        answers.push(JSON.stringify(rows.map((r) => [Number(r.t), Number(r.b), Number(r.n)])));
      }
    const same = new Set(answers).size === 1;
    answers = [];
    for (const name of ['rows', 'spans'])
      console.log(
        `${range.padEnd(4)} duration heatmap, ${name.padEnd(6)} ${ms[name].sort((a, b) => a - b).join(' / ')} ms`,
      );
    console.log(`${range.padEnd(4)} answers ${same ? 'equal' : 'DIFFER'}`);
  }
} finally {
  await store.close();
}
