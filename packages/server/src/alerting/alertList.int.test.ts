import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEventsResponse, AlertListResponse } from '@lantern/shared';
import { removeDataDir, tempDataDir } from '@lantern/testkit/harness';
import { pgDatabaseFor, testPgUrl } from '@lantern/testkit/postgres';
import { METADATA_MIGRATIONS } from '../app/metadataMigrations';
import { loadConfig } from '../config';
import { migrateMetadataDb, openMetadataDb, type MetadataDb } from '../storage/metadata';
import { createAlertsService, type AlertsService } from './alerts.service';
import { createAlertsStore, type NewAlert } from './alerts.store';
import { createChannelsStore } from './channels.store';
import { alertingDb, type AlertingDb } from './db';
import type { ErrorSpans } from './errorSpans';
import { createMonitorsStore } from './monitors.store';

/**
 * The alert list filtered, faceted, sorted and paged by the database (SQLite and
 * PostgreSQL): every alert of the project counts, not a newest-N window.
 */
const backends = [
  { name: 'SQLite', pg: false },
  { name: 'PostgreSQL', pg: true },
];

const T0 = Date.parse('2026-11-20T00:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function metricAlert(i: number, over: Partial<NewAlert> & { attrs?: string } = {}): NewAlert {
  return {
    project_id: 1,
    dedup_key: `metric:${i}`,
    name: `cpu high on web${i}`,
    state: 'open',
    type: 'metric',
    monitor_id: 7,
    trackable_model: '',
    trackable_id: '',
    attrs: JSON.stringify({ 'host.name': `web${i % 3}` }),
    attrs_hash: String(i),
    params: JSON.stringify({
      firing: 1,
      outlier: 0.97,
      minutes: 5,
      bounds: { min: null, max: 0.9 },
      monitor: { metrics: [], query: '', column: 'x', columnUnit: '' },
    }),
    created_at: at(i),
    updated_at: at(1000 - i),
    ...over,
  };
}

describe.each(backends)('alert list in SQL on $name', ({ pg }) => {
  let dir: string;
  let raw: MetadataDb;
  let db: AlertingDb;
  let service: AlertsService;
  const list = async (query: Record<string, unknown>) => AlertListResponse.parse(await service.list(1, query));
  const ids = (r: AlertListResponse) => r.alerts.map((a) => a.id);

  beforeAll(async () => {
    dir = tempDataDir();
    const config = loadConfig({
      env: { LANTERN_DATA_DIR: dir, LANTERN_DB_URL: pg ? await pgDatabaseFor(testPgUrl(), dir) : '' },
    });
    raw = openMetadataDb(config);
    await migrateMetadataDb(raw, METADATA_MIGRATIONS);
    db = alertingDb(raw);
    const alerts = createAlertsStore(db);
    const noSpans = { spanAttrs: async () => null } as unknown as ErrorSpans;
    service = createAlertsService({
      db,
      alerts,
      errorSpans: noSpans,
      monitors: createMonitorsStore(db),
      channels: createChannelsStore(db),
      emailEnabled: false,
      now: () => new Date(T0 + 5000 * 60_000),
    });
    await db
      .insertInto('users')
      .values({ name: 'Ann', email: 'ann@example.com', password_hash: 'x', created_at: new Date(T0).toISOString() })
      .execute();
    // 12,000 metric alerts (more than the old 10,000 in-memory window), one closed in five, and
    // a few error alerts of another project and with special characters in their names.
    await db.transaction().execute(async (trx) => {
      for (let i = 1; i <= 12_000; i++)
        await alerts.insert(trx, metricAlert(i, { state: i % 5 === 0 ? 'closed' : 'open' }));
      await alerts.insert(
        trx,
        metricAlert(20_001, {
          type: 'error',
          monitor_id: 0,
          name: 'TypeError: 100% of x_y is undefined',
          attrs: JSON.stringify({ 'service.name': 'Billing', 'host.name': 'web1' }),
        }),
      );
      await alerts.insert(
        trx,
        metricAlert(20_002, {
          type: 'error',
          monitor_id: 0,
          name: 'timeout',
          attrs: JSON.stringify({ 'service.name': 'api' }),
        }),
      );
      await alerts.insert(
        trx,
        metricAlert(20_003, { project_id: 2, name: 'other project', attrs: JSON.stringify({ 'service.name': 'api' }) }),
      );
    });
  }, 120_000);
  afterAll(async () => {
    await raw?.destroy();
    if (dir) removeDataDir(dir);
  });

  it('counts every matching alert, pages in the database, and defaults to open alerts', async () => {
    const first = await list({ limit: '10' });
    expect(first.count).toBe(9600 + 2);
    expect(first.alerts).toHaveLength(10);
    expect(first.alerts.every((a) => a.state === 'open' && a.projectId === 1)).toBe(true);
    // updated_at descending: alert i is updated at 1000 - i minutes.
    expect(ids(first).slice(0, 5)).toEqual([1, 2, 3, 4, 6]);
    const last = await list({ q: '', 'attrs[alert.state]': ['open', 'closed'], page: '121', limit: '100' });
    expect(last.count).toBe(12_002);
    expect(last.alerts).toHaveLength(2);
    const all = await list({ q: '', limit: '1000', page: '2' });
    expect(all.count).toBe(12_002);
    expect(all.alerts).toHaveLength(1000);
  });

  it('sorts by created or updated time either way, ties broken by id', async () => {
    const created = await list({ q: '', sort_by: 'created_at', sort_desc: 'false', limit: '3' });
    expect(created.alerts.map((a) => a.createdAt)).toEqual([at(1), at(2), at(3)]);
    const updated = await list({ q: '', sort_by: 'updated_at', sort_desc: 'true', limit: '2' });
    expect(updated.alerts[0].updatedAt >= updated.alerts[1].updatedAt).toBe(true);
    expect((await service.list(1, { sort_by: 'name' }).catch((e: Error) => e)) as Error).toMatchObject({
      message: 'sort_by: sort_by must be updated_at or created_at',
    });
  });

  it('matches words in the name and attribute values, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(ids(await list({ q: 'typeerror BILLING' }))).toHaveLength(1);
    expect((await list({ q: '100%' })).alerts.map((a) => a.name)).toEqual(['TypeError: 100% of x_y is undefined']);
    expect((await list({ q: 'x_y' })).count).toBe(1);
    expect((await list({ q: '_' })).count).toBe(1);
    expect((await list({ q: 'web11999' })).count).toBe(1);
    expect((await list({ q: 'monitor:7 web11999' })).count).toBe(1);
    expect((await list({ q: 'monitor:8 web11999' })).count).toBe(0);
    expect((await list({ q: 'other project' })).count).toBe(0);
    // At most 20 different words (each is a LIKE pair in every query of the list); repeats count once.
    expect((await list({ q: Array(120).fill('billing').join(' ') })).count).toBe(1);
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect((await list({ q: words(20) })).count).toBe(0);
    for (const q of [words(21), words(150)])
      await expect(service.list(1, { q })).rejects.toMatchObject({
        code: 'invalid_input',
        message: 'q: at most 20 different words are allowed',
      });
  });

  it('filters by attributes (OR within a key, AND across keys) and counts facets without their own filter', async () => {
    const r = await list({ 'attrs[host.name]': ['web1'], 'attrs[alert.type]': ['error'] });
    expect(r.alerts.map((a) => a.name)).toEqual(['TypeError: 100% of x_y is undefined']);
    const facet = (key: string) => r.facets.find((f) => f.key === key)?.items.map((i) => [i.value, i.count]);
    // The type facet ignores the type filter: every alert on web1 by type.
    expect(facet('alert.type')).toEqual([
      ['metric', 4000],
      ['error', 1],
    ]);
    // The host facet ignores the host filter: error alerts by host.
    expect(facet('host.name')).toEqual([['web1', 1]]);
    expect(facet('service.name')).toEqual([['Billing', 1]]);
    expect(r.facets.map((f) => f.key)).toEqual(['alert.state', 'alert.type', 'host.name', 'service.name']);

    // At most 20 attributes: 700 took a minute and a half (each facet query holds the other filters).
    const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`attrs[k${i}]`, ['v']]));
    expect((await list(attrs(20))).count).toBe(0);
    for (const raw of [attrs(21), attrs(700)])
      await expect(service.list(1, raw)).rejects.toMatchObject({
        code: 'invalid_input',
        message: 'attrs: at most 20 attribute filters are allowed',
      });
    await expect(service.closeAll(1, attrs(21), 1)).rejects.toMatchObject({ code: 'invalid_input' });

    const either = await list({ 'attrs[service.name]': ['api', 'Billing'], 'attrs[state]': ['open'] });
    expect(either.count).toBe(2);
    const states = either.facets[0];
    expect(states).toEqual({ key: 'alert.state', items: [{ key: 'alert.state', value: 'open', count: 2 }] });
  });

  it('closes every open alert matching the filter, and records who did it in the history', async () => {
    const { count } = await service.closeAll(1, { q: 'web11998' }, 1);
    expect(count).toBe(1);
    const [alert] = (await list({ q: 'web11998' })).alerts;
    expect(alert.state).toBe('closed');
    await service.open(1, { alertIds: [alert.id] }, 1);
    const { events } = AlertEventsResponse.parse(await service.events(1, String(alert.id)));
    expect(events.map((e) => [e.name, (e.params as { state: string }).state, e.user?.name])).toEqual([
      ['state-changed', 'open', 'Ann'],
      ['state-changed', 'closed', 'Ann'],
    ]);
    await expect(service.events(2, String(alert.id))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(service.events(1, 'x')).rejects.toMatchObject({ code: 'alert_not_found' });
  });

  it('deletes alerts with their attribute rows, so facets forget them', async () => {
    const r = await list({ 'attrs[service.name]': ['api'] });
    expect(r.count).toBe(1);
    await service.remove(1, { alertIds: [r.alerts[0].id] });
    expect((await list({ 'attrs[service.name]': ['api'] })).count).toBe(0);
    const left = await db.selectFrom('alert_attrs').select('key').where('alert_id', '=', r.alerts[0].id).execute();
    expect(left).toEqual([]);
  });
});
