import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { param, sql } from '../../../server/src/storage/sql';
import { DERIVED_ROWS_METRIC } from './storeCounts';
import { METRICS_ROWS_METRIC, METRICS_TRACE_ATTR } from './traffic';
import { openChdbStore } from '../../../server/src/storage/telemetry';

// `node --import tsx packages/testkit/src/hardening/storeCountsMain.ts <dataDir>`: prints rows per trace id in
// spans_index and spans_data, as counted by a metric from spans, and the datapoints of metrics
// requests, as JSON (see storeCounts.ts).
const dataDir = process.argv[2];
const store = openChdbStore({
  path: join(dataDir, 'ch'),
  ttl: { spansDays: 30, metricsDays: 90 },
  maxMemoryUsage: 2 * 1024 ** 3,
  maxThreads: 2,
});
// As a restarted server would: what a killed one journaled and had not inserted goes in first. Only
// an embedded store keeps that journal; the data a remote store wrote (the ClickHouse stand-in of
// integration-ch, in the same directory) has none, and was not migrated for an embedded store.
const journal = join(dataDir, 'ch', 'span-metrics-journal');
if (existsSync(journal) && readdirSync(journal).length > 0) await store.migrate();
const counts = async (table: 'index' | 'data') => {
  const q =
    table === 'index'
      ? sql`SELECT replaceAll(toString(trace_id), '-', '') AS t, count() AS n FROM spans_index GROUP BY t`
      : sql`SELECT replaceAll(toString(trace_id), '-', '') AS t, count() AS n FROM spans_data GROUP BY t`;
  return (await store.query<{ t: string; n: string }>(q)).map((r) => [r.t, Number(r.n)]);
};
// Rows counted per trace id by the metric that durability.ts configures from spans (none: empty).
const derived = (
  await store.query<{ t: string; n: number }>(
    sql`SELECT string_values[indexOf(string_keys, '.trace_id')] AS t, sum(sum) AS n FROM datapoint_minutes WHERE metric = ${param.string(DERIVED_ROWS_METRIC)} GROUP BY t`,
  )
).map((r) => [r.t, Number(r.n)]);
// Datapoints stored per trace id of metrics requests: each is a series of its own with the value 1.
const datapoints = (
  await store.query<{ t: string; n: number }>(
    sql`SELECT string_values[indexOf(string_keys, ${param.string(METRICS_TRACE_ATTR)})] AS t, sum(sum) AS n FROM datapoint_minutes WHERE metric = ${param.string(METRICS_ROWS_METRIC)} GROUP BY t`,
  )
).map((r) => [r.t, Number(r.n)]);
const result = { index: await counts('index'), data: await counts('data'), derived, datapoints };
await store.close();
process.stdout.write(JSON.stringify(result));
