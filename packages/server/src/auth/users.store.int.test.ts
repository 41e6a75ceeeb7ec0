import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPgUrl } from '@lantern/testkit/postgres';
import { METADATA_MIGRATIONS } from '../app/metadataMigrations';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { verifyPassword } from './password';
import { createSessionsStore } from './sessions.store';
import { createUsersStore } from './users.store';

/**
 * Users synced from config into the metadata DB, in SQLite and in PostgreSQL (the test run's
 * server, packages/testkit/src/globalSetup.ts).
 */
function checks(open: () => MetadataDb) {
  let db: MetadataDb;
  beforeAll(async () => {
    db = open();
    await migrateMetadataDb(db, METADATA_MIGRATIONS);
    await migrateMetadataDb(db, METADATA_MIGRATIONS);
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

  it('keeps single sign-on users through config changes, and ends the sessions of removed config users', async () => {
    const users = createUsersStore(db);
    const sessions = createSessionsStore(db);
    await users.syncFromConfig([
      { name: 'A', email: 'a@example.com', password: 'one' },
      { name: 'Gone', email: 'gone@example.com', password: 'x' },
    ]);
    const sso = await users.createFromSso({ name: 'Sam', email: 'Sam@Example.com', provider: 'okta' });
    expect(sso).toMatchObject({ email: 'sam@example.com', name: 'Sam', password_hash: '', sso_provider: 'okta' });
    // A second first sign-in at the same time finds the same row.
    expect((await users.createFromSso({ name: 'Sam', email: 'sam@example.com', provider: 'okta' })).id).toBe(sso.id);
    const gone = (await users.byEmail('gone@example.com'))!;
    const goneSession = await sessions.create(gone.id, 3600);
    const ssoSession = await sessions.create(sso.id, 3600);
    expect((await sessions.userOf(goneSession, gone.id))?.email).toBe('gone@example.com');

    await users.syncFromConfig([{ name: 'A', email: 'a@example.com', password: 'one' }]);
    expect(await users.byEmail('gone@example.com')).toBeUndefined();
    expect(await sessions.userOf(goneSession, gone.id)).toBeUndefined();
    expect((await sessions.userOf(ssoSession, sso.id))?.sso_provider).toBe('okta');

    // Listing the SSO user's e-mail in the config makes it a config user (with a password).
    await users.syncFromConfig([
      { name: 'A', email: 'a@example.com', password: 'one' },
      { name: 'Sam Config', email: 'sam@example.com', password: 'pw' },
    ]);
    const converted = (await users.byEmail('sam@example.com'))!;
    expect(converted).toMatchObject({ id: sso.id, name: 'Sam Config', sso_provider: null });
    expect(await verifyPassword('pw', converted.password_hash)).toBe(true);
    expect(await sessions.userOf(ssoSession, sso.id, new Date(Date.now() + 2 * 3600_000))).toBeUndefined();
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
