import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MonitorListResponse } from '@lantern/shared';
import { removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { startSmtpReceiver } from '@lantern/testkit/receivers';
import { METADATA_MIGRATIONS } from '../app/metadataMigrations';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb } from '../storage/metadata';
import { startAlertingServer, type AlertingTestServer } from './alertingTestServer';
import { alertingDb } from './db';

/**
 * A project gets the error monitor "Notify on all errors" (reference alerting §1) the first time
 * Lantern starts with it, once: a user who deletes it does not get it back at the next start, and
 * an installation that already had monitors or alerts gets none on upgrade.
 */
describe('the default error monitor', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => removeDataDir(d)));
  const clock = { now: new Date('2026-11-26T12:00:00Z') };

  const monitors = async (server: AlertingTestServer) =>
    MonitorListResponse.parse((await server.call('GET', '/monitors')).body).monitors;

  it('is created for a new project, e-mailing everyone every error, and stays deleted once deleted', async () => {
    const smtp = await startSmtpReceiver();
    const dir = tempDataDir();
    dirs.push(dir);
    let server = await startAlertingServer({ dataDir: dir, smtpPort: smtp.port, clock });
    try {
      const [monitor, ...rest] = await monitors(server);
      expect(rest).toEqual([]);
      expect(monitor).toMatchObject({
        name: 'Notify on all errors',
        type: 'error',
        state: 'active',
        notifyEveryoneByEmail: true,
        params: { notifyOnNewErrors: true, notifyOnRecurringErrors: true, matchers: [] },
      });
      expect((await server.call('DELETE', `/monitors/${monitor.id}`)).status).toBe(200);
    } finally {
      await server.lantern.close();
    }
    server = await startAlertingServer({ dataDir: dir, smtpPort: smtp.port, clock });
    try {
      expect(await monitors(server)).toEqual([]);
    } finally {
      await server.lantern.close();
      await smtp.close();
    }
  });

  it('is not added on upgrade to a project that already had monitors or alerts', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const raw = openMetadataDb(loadConfig({ env: { LANTERN_DATA_DIR: dir, LANTERN_DB_URL: '' } }));
    try {
      const { error } = await new Migrator({
        db: raw,
        provider: { getMigrations: async () => ({ ...METADATA_MIGRATIONS }) },
      }).migrateTo('0007_auth_sessions');
      expect(error).toBeUndefined();
      const db = alertingDb(raw);
      const at = '2026-11-20T00:00:00.000Z';
      await db
        .insertInto('alerts')
        .values({
          project_id: 2,
          name: 'timeout',
          state: 'open',
          type: 'error',
          monitor_id: 0,
          trackable_model: 'SpanGroup',
          trackable_id: '1',
          attrs_hash: '',
          params: '{}',
          attrs: '{}',
          dedup_key: '1',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await migrateMetadataDb(raw, METADATA_MIGRATIONS);
      const seeded = await db.selectFrom('alerting_seeded_projects').select('project_id').execute();
      expect(seeded).toEqual([{ project_id: 2 }]);
    } finally {
      await raw.destroy();
    }
  });
});
