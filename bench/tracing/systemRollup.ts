/**
 * The per-system 5-minute rows (span_systems_5m, telemetry migration 20) against the spans, paired
 * on one store: the 24 h percentiles chart and the Overview's 24 h sparklines by system (its 15
 * largest systems), each as served and as read from the spans (the same range off the minute by a
 * millisecond; group queries `.system in (…)`, which the rollup does not take), three runs each,
 * alternating. A store of bench/tracing/run.ts, migrated (the migration rolls the minutes up):
 *   node --import tsx bench/tracing/systemRollup.ts /path/to/tracing-data
 */
import { readFileSync } from 'node:fs';
import { groupsStatsSql, percentilesSql, systemsSql } from '../../packages/server/src/tracing/query/builders';
import { openBenchStore } from './benchStore';
const dir = process.argv[2];
const endMs = (JSON.parse(readFileSync(`${dir}/bench-tracing.json`, 'utf8')) as { endMs: number }).endMs;
const store = openBenchStore(dir);
const lt = new Date(Math.floor(endMs / 60_000) * 60_000);
const scope = { projectId: 1, gte: new Date(lt.getTime() - 86_400_000), lt, systems: ['all'] };
const bySystem = (await store.query<{ system: string; count: string }>(systemsSql(scope, '').sql))
  .sort((a, b) => Number(b.count) - Number(a.count))
  .slice(0, 15);
const cols = ['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)'];
const Q = 'group by .system | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | max(.duration)';
const groups = bySystem.map((r) => `where .system = ${JSON.stringify(r.system)}`);
// The raw SQL: the builders' span reads (a group query the rollup does not take: `.system in (...)`).
const rawGroups = bySystem.map((r) => `where .system in (${JSON.stringify(r.system)})`);
const calls = [
  ['24h percentiles, 5-minute rows', percentilesSql(scope, '', true).sql],
  ['24h percentiles, spans', percentilesSql({ ...scope, gte: new Date(scope.gte.getTime() + 1) }, '', true).sql],
  ['24h sparklines, 5-minute rows', groupsStatsSql(scope, Q, cols, groups).sql!],
  ['24h sparklines, spans', groupsStatsSql(scope, Q, cols, rawGroups).sql!],
] as const;
const ms: Record<string, number[]> = {};
for (let i = 0; i < 3; i++)
  for (const [name, q] of calls) {
    const t = performance.now();
    await store.query(q);
    (ms[name] ??= []).push(Math.round(performance.now() - t));
  }
for (const [name] of calls) console.log(name.padEnd(34), ms[name].sort((a, b) => a - b).join(' / '), 'ms');
await store.close();
