import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPgUrl } from '../../../../e2e/postgres';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { verifyPassword } from './password';
import { createUsersStore } from './users.store';

/**
 * Users synced from config into the metadata DB, in SQLite and in PostgreSQL (the test run's
 * server, e2e/globalSetup.ts).
 */
function checks(open: () => MetadataDb) {
  let db: MetadataDb;
  beforeAll(async () => {
    db = open();
    await migrateMetadataDb(db);
    await migrateMetadataDb(db);
  });
  afterAll(async () => db?.destroy());

  it('inserts, re-hashes changed passwords, keeps unchanged hashes, and removes unlisted users', async () => {
    const users = createUsersStore(db);
    await users.syncFromConfig([
      { name: 'A', email: 'A@Example.com', password: 'one' },
      { name: 'B', email: 'b@example.com', password: 'two' },
    ]);
    const a1 = await users.byEmail('a@example.com');
    expect(a1?.name).toBe('A');
    expect(a1!.password_hash).not.toContain('one');
    expect(await verifyPassword('one', a1!.password_hash)).toBe(true);

    await users.syncFromConfig([{ name: 'A2', email: 'a@example.com', password: 'one' }]);
    const a2 = await users.byEmail('a@example.com');
    expect(a2?.name).toBe('A2');
    expect(a2!.password_hash).toBe(a1!.password_hash);
    expect(await users.byEmail('b@example.com')).toBeUndefined();

    await users.syncFromConfig([{ name: 'A2', email: 'a@example.com', password: 'three' }]);
    const a3 = await users.byEmail('a@example.com');
    expect(await verifyPassword('three', a3!.password_hash)).toBe(true);
    expect(await verifyPassword('one', a3!.password_hash)).toBe(false);
  });
}

describe('users in SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-meta-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  checks(() => openMetadataDb(loadConfig({ env: { LANTERN_DATA_DIR: dir } })));
});

describe('users in PostgreSQL', () => {
  checks(() => openMetadataDb(loadConfig({ env: { LANTERN_DB_URL: testPgUrl() } })));
});
