import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { param, sql } from '../sql';
import { openChdbStore } from './chdbStore';
import { freshSchema } from './migrate';
import type { TelemetryStore } from './telemetryStore';

/**
 * The cluster DDL is run by no test server (a cluster needs ClickHouse Keeper and several
 * servers), so the real engine's parser checks every statement of it: `formatQuery` parses a
 * query as the server would and fails on a syntax error.
 */
describe('cluster DDL in the engine parser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-cluster-ddl-'));
  let store: TelemetryStore;
  beforeAll(() => {
    store = openChdbStore({ path: dir, ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2e9, maxThreads: 2 });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses every statement', async () => {
    const ddl = freshSchema({ spansDays: 30, metricsDays: 90 }, 'lantern');
    for (const statement of ddl) {
      const [row] = await store.query<{ f: string }>(sql`SELECT formatQuery(${param.string(statement)}) AS f`);
      expect(row.f.length, statement.slice(0, 80)).toBeGreaterThan(0);
    }
    await expect(
      store.query(sql`SELECT formatQuery(${param.string('CREATE TABLE x ON CLUSTER (')}) AS f`),
    ).rejects.toMatchObject({ name: 'StoreQueryError' });
  });
});
