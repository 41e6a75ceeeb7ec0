import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../storage/sql';
import { openChdbStore, type TelemetryStore } from '../storage/telemetry';
import { createCatalogWriter } from './ingest';
import type { MetricInfo } from './ingest';
import { createMetricsStore } from './metrics.store';

/**
 * The catalogue keeps one row per write (folded by merges), and its reads take the latest by
 * `updated_at`, whole seconds. A Prometheus remote write sends samples before their metadata, so
 * a metric's first row has no description or unit and the next, often in the same second, has
 * them: such a tie must not leave the metric without its description until the next write (15
 * minutes later).
 */
describe('metric catalogue rows written in the same second', () => {
  let dir: string;
  let store: TelemetryStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-catalog-ties-'));
    store = openChdbStore({ path: dir, ttl: { spansDays: 30, metricsDays: 90 }, maxMemoryUsage: 2e9, maxThreads: 2 });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keep the description and unit over an empty one, whichever was written first', async () => {
    const at = Math.floor(Date.now() / 1000);
    const row = (name: string, description: string, unit: string) => ({
      project_id: 1,
      name,
      description,
      unit,
      instrument: 'counter',
      attr_keys: ['job'],
      created_at: at,
      updated_at: at,
    });
    // Separate inserts, so separate parts, in both orders.
    await store.insertRows('metrics_catalog', [row('samples_first', '', '')]);
    await store.insertRows('metrics_catalog', [row('samples_first', 'Requests served.', 'seconds')]);
    // The other order: rows of one second fold by part order when their parts merge, so the
    // writer carries the description and unit into the later row itself.
    const writer = createCatalogWriter(store, () => at * 1000 + 200);
    const info = (description: string, unit: string): MetricInfo => ({
      name: 'metadata_first',
      description,
      unit,
      instrument: 'counter',
      attrKeys: ['job'],
    });
    await writer.record(1, [info('Jobs done.', 'bytes')]);
    await writer.record(1, [{ ...info('', ''), attrKeys: ['job', 'le'] }]);
    // Attribute keys of one second add up (two exporters of one metric with different keys), so
    // the read (the longest of a second) and a merge (the last part) agree in either order.
    await writer.record(1, [{ ...info('', ''), name: 'keys_fewer_later', attrKeys: ['job', 'le'] }]);
    await writer.record(1, [{ ...info('', ''), name: 'keys_fewer_later', attrKeys: ['instance'] }]);
    // A later write wins as before, an empty one included (a description removed at the source).
    await store.insertRows('metrics_catalog', [row('changed', 'Old text.', 'seconds')]);
    await store.insertRows('metrics_catalog', [{ ...row('changed', '', ''), updated_at: at + 1 }]);

    const list = await createMetricsStore(store).list(1);
    const byName = Object.fromEntries(list.map((m) => [m.name, m]));
    expect(byName.samples_first).toMatchObject({ description: 'Requests served.', unit: 'seconds' });
    expect(byName.metadata_first).toMatchObject({ description: 'Jobs done.', unit: 'bytes', attrKeys: ['job', 'le'] });
    expect(byName.keys_fewer_later).toMatchObject({ attrKeys: ['instance', 'job', 'le'] });
    // Merged, the same answers.
    await store.query(sql`OPTIMIZE TABLE metrics_catalog FINAL`);
    const merged = Object.fromEntries((await createMetricsStore(store).list(1)).map((m) => [m.name, m]));
    expect(merged).toEqual(byName);
    expect(byName.changed).toMatchObject({ description: '', unit: '' });
  });
});
