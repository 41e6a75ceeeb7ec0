/**
 * The per-system 5-minute reads (rollup.ts systemRollupFrom) of two checkouts on one store, paired:
 * the percentiles chart and the Overview's sparklines by system (its 15 largest systems) over
 * 1 h, 24 h and 7 d, as built by this checkout's builders and by those of `--base` (another
 * worktree, e.g. `git worktree add /tmp/base <commit>`), alternating, `--runs` each (median and
 * spread). The answers must be the same rows (percentiles within the states' merge order: compared
 * as counts, errors and maxima). A store of bench/tracing/run.ts, migrated; no server on it:
 *   node --import tsx bench/tracing/systemRollupAb.ts --data-dir /path/to/tracing-data --base /tmp/base
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SqlFragment } from '../../packages/server/src/storage/sql';
import * as here from '../../packages/server/src/tracing/query/builders';
import { openBenchStore } from './benchStore';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    base: { type: 'string' },
    ranges: { type: 'string', default: '1h,24h,7d' },
    runs: { type: 'string', default: '5' },
  },
});
if (!args['data-dir'] || !args.base) throw new Error('--data-dir and --base are required');
const dir = args['data-dir'];
const base = (await import(resolve(args.base, 'packages/server/src/tracing/query/builders.ts'))) as typeof here;
const RANGES: Record<string, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
const OVERVIEW = 'group by .system | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | max(.duration)';
const COLUMNS = ['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)'];
const endMs = (JSON.parse(readFileSync(`${dir}/bench-tracing.json`, 'utf8')) as { endMs: number }).endMs;
const store = openBenchStore(dir);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The exact part of an answer row: everything but the percentile arrays and columns. */
const exact = (rows: Record<string, unknown>[]) =>
  JSON.stringify(rows.map((r) => Object.entries(r).filter(([k]) => k !== 'q' && !/^c[234]$/.test(k))));
try {
  for (const range of args.ranges.split(',')) {
    const lt = new Date(Math.floor(endMs / 60_000) * 60_000);
    const scope = { projectId: 1, gte: new Date(lt.getTime() - RANGES[range]), lt, systems: ['all'] };
    const bySystem = (await store.query<{ system: string; count: string }>(here.systemsSql(scope, '').sql))
      .sort((a, b) => Number(b.count) - Number(a.count))
      .slice(0, 15)
      .map((r) => `where .system = ${JSON.stringify(r.system)}`);
    const calls: [string, (b: typeof here) => SqlFragment][] = [
      ['percentiles', (b) => b.percentilesSql(scope, '', true).sql],
      ['sparklines (Overview, 15 systems)', (b) => b.groupsStatsSql(scope, OVERVIEW, COLUMNS, bySystem).sql!],
    ];
    for (const [name, build] of calls) {
      const ms: Record<'base' | 'this', number[]> = { base: [], this: [] };
      const answers: Record<string, string> = {};
      for (let i = 0; i < Number(args.runs); i++)
        for (const [side, b] of [
          ['base', base],
          ['this', here],
        ] as const) {
          const t = performance.now();
          const rows = await store.query<Record<string, unknown>>(build(b));
          ms[side].push(Math.round(performance.now() - t));
          answers[side] = exact(rows);
        }
      const same = answers.base === answers.this ? 'same counts, errors, maxima' : 'ANSWERS DIFFER';
      const fmt = (xs: number[]) => `${median(xs)} (${Math.min(...xs)}-${Math.max(...xs)})`;
      console.log(
        `${range.padEnd(4)} ${name.padEnd(34)} base ${fmt(ms.base).padStart(16)} ms  this ${fmt(ms.this).padStart(16)} ms  ${same}`,
      );
    }
  }
} finally {
  await store.close();
}
