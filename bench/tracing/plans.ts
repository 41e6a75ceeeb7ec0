import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql, type SqlFragment } from '../../packages/server/src/storage/sql';
import {
  groupsSql,
  groupsStatsSql,
  percentilesSql,
  spansSql,
  systemsSql,
  timeseriesSql,
} from '../../packages/server/src/tracing/query/builders';
import { durationHeatmapSql, heatmapBucketMs } from '../../packages/server/src/tracing/attrDeltas/attrDeltasSql';
import { heatmapRollupRanges } from '../../packages/server/src/tracing/attrDeltas/heatmapRollup';
import { compileQuery } from '../../packages/server/src/tracing/query/compile';
import { openBenchStore } from './benchStore';
import { DEFAULT_QUERY } from './filteredCases';

/**
 * Where a tracing page's calls spend their time (issue 42, "measure first"): over a store that
 * `bench/tracing/run.ts` loaded (`--data-dir`), the SQL each call of Overview and Explore builds for
 * all systems and the default query, timed in-process (`--runs` each) and with the granules its
 * reads select (`EXPLAIN indexes = 1`): a call that reads every granule of `spans_index` scans
 * every span of the range instead of a rollup. A first page by duration is timed with the query of
 * its duration floor before it, and the duration heatmap with the query of the hours its rows cover,
 * as the service runs them.
 *
 *   node --import tsx bench/tracing/plans.ts --data-dir /path/to/tracing-data [--ranges 1h,24h] [--runs 3]
 *
 * Opens the store itself: no server may be running on the directory.
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    ranges: { type: 'string', default: '1h,24h' },
    runs: { type: 'string', default: '3' },
  },
});
const dir = args['data-dir'];
if (!dir) throw new Error('--data-dir is required (a directory bench/tracing/run.ts loaded)');
const OVERVIEW_QUERY = 'group by .system | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | max(.duration)';
const RANGES: Record<string, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
const endMs = (JSON.parse(readFileSync(`${dir}/bench-tracing.json`, 'utf8')) as { endMs: number }).endMs;
const store = openBenchStore(dir);
try {
  for (const range of args.ranges.split(',')) {
    const lt = new Date(Math.floor(endMs / 60_000) * 60_000);
    const scope = { projectId: 1, gte: new Date(lt.getTime() - RANGES[range]), lt, systems: ['all'] };
    const ts = timeseriesSql(scope, DEFAULT_QUERY);
    const spans = spansSql(scope, '', { page: 1, limit: 10, eventsOnly: false });
    // The first page as the service reads it: the duration floor from a rollup first, when it has one.
    const floor = spans.durationFloor && (await store.query<{ floor: string }>(spans.durationFloor))[0]?.floor;
    const page = floor !== undefined && floor !== null ? spans.pageFrom(BigInt(floor)) : spans.page;
    // The Overview's `.system overview`: the groups by system and the sparklines of its first 15 rows
    // (groupsStatsSql, the systems with the most spans first, as the page's first order).
    const bySystem = (await store.query<{ system: string; count: string }>(systemsSql(scope, '').sql))
      .sort((a, b) => Number(b.count) - Number(a.count))
      .slice(0, 15);
    const sparklines = groupsStatsSql(
      scope,
      OVERVIEW_QUERY,
      ['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)'],
      bySystem.map((r) => `where .system = ${JSON.stringify(r.system)}`),
    ).sql;
    // The duration heatmap (Explore timeseries, What changed): the rows' covered hours first, as the service asks.
    const noFilter = compileQuery(DEFAULT_QUERY, 'filters', { minutes: 1 });
    const coveredHours = () => heatmapRollupRanges(store, scope, noFilter, heatmapBucketMs(scope));
    const heatmap = durationHeatmapSql(scope, noFilter, await coveredHours()).sql;
    const calls: [string, SqlFragment | null, SqlFragment | (() => Promise<unknown>) | null][] = [
      ['groups by system (Overview)', groupsSql(scope, OVERVIEW_QUERY, { limit: 1000 }).sql, null],
      ['their sparklines (Overview, 15 rows)', sparklines, null],
      ['timeseries (default query, as served)', ts.ranked ?? ts.sql, null],
      ['percentiles', percentilesSql(scope, '', true).sql, null],
      ['groups (default query)', groupsSql(scope, DEFAULT_QUERY, { limit: 100 }).sql, null],
      ['systems', systemsSql(scope, '').sql, null],
      ['spans (first page by duration)', page, spans.durationFloor],
      ['spans (count)', spans.count, null],
      ['duration heatmap (Explore timeseries)', heatmap, coveredHours],
    ];
    for (const [name, q, first] of calls) {
      if (!q) continue;
      const ms: number[] = [];
      for (let i = 0; i < Number(args.runs); i++) {
        const t = performance.now();
        if (typeof first === 'function') await first();
        else if (first) await store.query(first);
        await store.query(q);
        ms.push(Math.round(performance.now() - t));
      }
      const plan = (await store.query<{ explain: string }>(sql`EXPLAIN indexes = 1 ${q}`)).map((r) => r.explain);
      // Each table read, with the granules its last index step kept.
      const reads: string[] = [];
      plan.forEach((line, i) => {
        const table = /ReadFromMergeTree \((.+)\)/.exec(line)?.[1];
        if (!table) return;
        const next = plan.slice(i + 1).findIndex((l) => /ReadFromMergeTree|LazilyRead/.test(l));
        const own = plan.slice(i + 1, next === -1 ? undefined : i + 1 + next);
        const granules =
          own
            .filter((l) => /Granules: \d+\/\d+/.test(l))
            .pop()
            ?.trim() ?? '?';
        reads.push(`${table} ${granules}`);
      });
      ms.sort((a, b) => a - b);
      console.log(`${range.padEnd(4)} ${name.padEnd(40)} ${ms.join(' / ').padStart(22)} ms   ${reads.join('; ')}`);
    }
  }
} finally {
  await store.close();
}
