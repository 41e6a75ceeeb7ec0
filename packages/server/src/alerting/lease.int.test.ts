import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { pgDatabaseFor, testPgUrl } from '@lantern/testkit/postgres';
import { METADATA_MIGRATIONS } from '../app/metadataMigrations';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { alertingDb } from './db';
import { acquireLease, releaseLease } from './lease';

/**
 * Exactly one evaluator per deployment: the lease in the real metadata store, SQLite and
 * PostgreSQL (the test run's server, packages/testkit/src/globalSetup.ts), through two connections as two Lantern processes would have.
 */
const backends = [
  { name: 'SQLite', pg: false },
  { name: 'PostgreSQL', pg: true },
];

describe.each(backends)('evaluator lease in $name', ({ pg }) => {
  let dir: string;
  let a: MetadataDb;
  let b: MetadataDb;
  beforeAll(async () => {
    dir = tempDataDir();
    const config = loadConfig({
      env: { LANTERN_DATA_DIR: dir, LANTERN_DB_URL: pg ? await pgDatabaseFor(testPgUrl(), dir) : '' },
    });
    a = openMetadataDb(config);
    await migrateMetadataDb(a, METADATA_MIGRATIONS);
    b = openMetadataDb(config);
  });
  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    removeDataDir(dir);
  });

  it('lets one holder evaluate at a time, hands over after expiry or release', async () => {
    const t0 = new Date('2026-11-23T10:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    expect(await acquireLease(alertingDb(a), 'node-a', t0, 90_000)).toBe(true);
    expect(await acquireLease(alertingDb(b), 'node-b', at(1), 90_000)).toBe(false);
    // The holder renews each tick; the other keeps being refused.
    expect(await acquireLease(alertingDb(a), 'node-a', at(60), 90_000)).toBe(true);
    expect(await acquireLease(alertingDb(b), 'node-b', at(120), 90_000)).toBe(false);
    // node-a stops renewing (crashed): node-b takes over after the lease ran out.
    expect(await acquireLease(alertingDb(b), 'node-b', at(151), 90_000)).toBe(true);
    expect(await acquireLease(alertingDb(a), 'node-a', at(152), 90_000)).toBe(false);
    // A clean shutdown releases at once.
    await releaseLease(alertingDb(b), 'node-b');
    expect(await acquireLease(alertingDb(a), 'node-a', at(153), 90_000)).toBe(true);
  });

  it('gives the lease to exactly one of many concurrent contenders', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => acquireLease(alertingDb(i % 2 ? a : b), `c${i}`, now, 90_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
