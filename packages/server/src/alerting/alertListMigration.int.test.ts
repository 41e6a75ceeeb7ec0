import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { METADATA_MIGRATIONS } from '../app/metadataMigrations';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { createAlertList, toFilter } from './alertList';
import { alertingDb } from './db';

/** Migration 0006 on a store that already holds alerts: their attribute rows and search text are filled in. */
describe('alert list migration over existing alerts', () => {
  let dir: string;
  let raw: MetadataDb;
  beforeAll(async () => {
    dir = tempDataDir();
    raw = openMetadataDb(loadConfig({ env: { LANTERN_DATA_DIR: dir, LANTERN_DB_URL: '' } }));
    const { error } = await new Migrator({
      db: raw,
      provider: { getMigrations: async () => ({ ...METADATA_MIGRATIONS }) },
    }).migrateTo('0005_dismissed_templates');
    expect(error).toBeUndefined();
  });
  afterAll(async () => {
    await raw?.destroy();
    if (dir) removeDataDir(dir);
  });

  it('backfills alert_attrs and attrs_text, so old alerts filter and search', async () => {
    const db = alertingDb(raw);
    const at = '2026-11-20T00:00:00.000Z';
    const old = {
      project_id: 1,
      name: 'timeout',
      state: 'open',
      type: 'error',
      monitor_id: 0,
      trackable_model: 'SpanGroup',
      trackable_id: '1',
      attrs_hash: '',
      params: '{}',
      created_at: at,
      updated_at: at,
    };
    // Written as the 0004 schema has it (no attrs_text column yet).
    await raw
      .withTables<{ alerts: Record<string, unknown> }>()
      .insertInto('alerts')
      .values([
        { ...old, dedup_key: 'error:1', attrs: JSON.stringify({ 'service.name': 'Billing', 'host.name': 'web1' }) },
        { ...old, dedup_key: 'error:2', attrs: JSON.stringify({ 'service.name': 'api' }) },
      ])
      .execute();
    await migrateMetadataDb(raw, METADATA_MIGRATIONS);

    expect(
      await db
        .selectFrom('alert_attrs')
        .select(['alert_id', 'key', 'value'])
        .orderBy('alert_id')
        .orderBy('key')
        .execute(),
    ).toEqual([
      { alert_id: 1, key: 'host.name', value: 'web1' },
      { alert_id: 1, key: 'service.name', value: 'Billing' },
      { alert_id: 2, key: 'service.name', value: 'api' },
    ]);
    const list = createAlertList(db);
    const query = (q: string, attrs: Record<string, string[]> = {}) =>
      list.list(toFilter(1, { q, attrs, sort_by: 'updated_at', sort_desc: true, page: 1, limit: 10 }), {
        sort_by: 'updated_at',
        sort_desc: true,
        page: 1,
        limit: 10,
      });
    expect((await query('billing')).alerts.map((a) => a.id)).toEqual([1]);
    expect((await query('', { 'service.name': ['api'] })).alerts.map((a) => a.id)).toEqual([2]);
  });
});
