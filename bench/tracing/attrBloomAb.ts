import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql, type SqlFragment } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';
import { groupsSql, spansSql, timeseriesSql } from '../../packages/server/src/tracing/query/builders';
import { DEFAULT_QUERY } from './filteredCases';

/**
 * What the bloom filter of attr_values (telemetry migration 13) does for a filter on an attribute
 * of the arrays over every system: the SQL this build compiles for the default groups query, its
 * time series and a span page (10 by `.duration` desc) with `where <filter>`, run with the skip
 * indexes used and with `use_skip_indexes = 0`, in turns on the same store (medians of
 * `--rounds`), and the granules the index leaves (`EXPLAIN indexes = 1`).
 *
 *   node --import tsx bench/tracing/attrBloomAb.ts --store <dir>/ch [--hours 24] [--rounds 7] 'http.route = "/x"' ...
 *
 * `--store`: a store of this build, e.g. `bytesPerSpan.ts --set ingest --keep`'s directory or a
 * `bench/tracing` data directory's `ch`. The range is the `--hours` up to the newest span.
 */
const { values: args, positionals: filters } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: 'string' },
    hours: { type: 'string', default: '24' },
    rounds: { type: 'string', default: '7' },
  },
});
if (!args.store || filters.length === 0) throw new Error('usage: --store <dir> <filter>...');
const store = openChdbStore({
  path: args.store,
  ttl: { spansDays: 30, metricsDays: 30 },
  maxMemoryUsage: 4 * 1024 ** 3,
  maxThreads: 2,
  rollupIntervalMs: 0,
  spanMetrics: null,
});
await store.migrate();
const [{ newest }] = await store.query<{ newest: string }>(
  sql`SELECT toUnixTimestamp64Milli(max(time)) AS newest FROM spans_index WHERE project_id = 1`,
);
const lt = new Date(Math.floor(Number(newest) / 60_000 + 1) * 60_000);
const scope = { projectId: 1, gte: new Date(lt.getTime() - Number(args.hours) * 3600_000), lt, systems: [] };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function granules(q: SqlFragment): Promise<string> {
  const text = (await store.query<{ explain: string }>(sql`EXPLAIN indexes = 1 ${q}`)).map((r) => r.explain).join('\n');
  return /Name: idx_attr_values[\s\S]*?Granules: (\d+\/\d+)/.exec(text)?.[1] ?? 'index not used';
}

console.log(`load ${loadavg()[0].toFixed(1)}; ${args.rounds} rounds a case, with and without skip indexes in turns`);
for (const filter of filters) {
  const query = `${DEFAULT_QUERY} | where ${filter}`;
  const cases: [string, SqlFragment][] = [
    ['groups', groupsSql(scope, query, { limit: 1000 }).sql!],
    ['timeseries', timeseriesSql(scope, query).sql!],
    [
      'spans page',
      spansSql(scope, `where ${filter}`, { sortBy: '.duration', sortDesc: true, page: 1, limit: 10, eventsOnly: false })
        .page,
    ],
  ];
  console.log(`${filter}: granules read ${await granules(cases[0][1])}`);
  for (const [name, q] of cases) {
    const ms: Record<'with' | 'without', number[]> = { with: [], without: [] };
    for (let r = 0; r < Number(args.rounds) + 1; r++)
      for (const [variant, text] of [
        ['with', q],
        ['without', sql`${q} SETTINGS use_skip_indexes = 0`],
      ] as const) {
        const t0 = performance.now();
        await store.query(text);
        if (r > 0) ms[variant].push(performance.now() - t0); // the first round warms the files
      }
    const [a, b] = [median(ms.with), median(ms.without)];
    console.log(
      `  ${name.padEnd(11)} with ${a.toFixed(0).padStart(5)} ms  without ${b.toFixed(0).padStart(5)} ms  ${(a / b).toFixed(2)}  (load ${loadavg()[0].toFixed(1)})`,
    );
  }
}
await store.close();
