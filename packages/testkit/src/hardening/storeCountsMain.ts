import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { param, sql } from '../../../server/src/storage/sql';
import { DERIVED_ROWS_METRIC } from './storeCounts';
import { METRICS_ROWS_METRIC, METRICS_TRACE_ATTR, PROM_ROWS_METRIC, PROM_TRACE_LABEL } from './traffic';
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
const journals = ['span-metrics-journal', 'datapoint-journal'].map((j) => join(dataDir, 'ch', j));
if (journals.some((j) => existsSync(j) && readdirSync(j).length > 0)) await store.migrate();
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
// Datapoints stored per trace id of metrics requests (the value 1 each: their sum) and samples per
// trace id of remote write requests (a gauge: their count). Trace ids differ between requests.
const datapoints = (
  await store.query<{ t: string; n: number }>(
    sql`SELECT string_values[indexOf(string_keys, ${param.string(METRICS_TRACE_ATTR)})] AS t, sum(sum) AS n FROM datapoint_minutes WHERE metric = ${param.string(METRICS_ROWS_METRIC)} GROUP BY t
      UNION ALL
      SELECT string_values[indexOf(string_keys, ${param.string(PROM_TRACE_LABEL)})] AS t, toFloat64(sum(count)) AS n FROM datapoint_minutes WHERE metric = ${param.string(PROM_ROWS_METRIC)} GROUP BY t`,
  )
).map((r) => [r.t, Number(r.n)]);
const result = { index: await counts('index'), data: await counts('data'), derived, datapoints };
await store.close();
process.stdout.write(JSON.stringify(result));
