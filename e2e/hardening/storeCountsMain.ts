import { join } from 'node:path';
import { sql } from '../../packages/server/src/storage/sql';
import { openChdbStore } from '../../packages/server/src/storage/telemetry';

// `node --import tsx e2e/hardening/storeCountsMain.ts <dataDir>`: prints rows per trace id in
// spans_index and spans_data as JSON (see storeCounts.ts).
const dataDir = process.argv[2];
const store = openChdbStore({ path: join(dataDir, 'ch'), ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2 * 1024 ** 3, maxThreads: 2 });
const counts = async (table: 'index' | 'data') => {
  const q = table === 'index'
    ? sql`SELECT replaceAll(toString(trace_id), '-', '') AS t, count() AS n FROM spans_index GROUP BY t`
    : sql`SELECT replaceAll(toString(trace_id), '-', '') AS t, count() AS n FROM spans_data GROUP BY t`;
  return (await store.query<{ t: string; n: string }>(q)).map((r) => [r.t, Number(r.n)]);
};
const result = { index: await counts('index'), data: await counts('data') };
await store.close();
process.stdout.write(JSON.stringify(result));
