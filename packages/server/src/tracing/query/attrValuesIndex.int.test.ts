import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { param, sql, type SqlFragment } from '../../storage/sql';
import { openChdbStore } from '../../storage/telemetry/chdbStore';
import type { TelemetryStore } from '../../storage/telemetry/telemetryStore';
import { groupsSql, spansSql } from './builders';
import type { RangeScope } from './scope';

/**
 * A filter `attr = v` (or `in`) on an attribute of the arrays over every system is read through
 * spans_index's bloom filter of attr_values (telemetry migration 13): the compiled query says
 * `has(attr_values, v)` beside the filter, the engine uses the index, and it reads only the
 * granules that hold v. 40 groups of 2,000 spans each, one route per group, as instrumentations
 * set `http.route` on the spans of one HTTP route: 10 granules of 8,192 rows.
 */
const DIR = mkdtempSync(join(tmpdir(), 'lantern-attr-bloom-'));
let store: TelemetryStore;
const END = Math.floor(Date.now() / 60_000) * 60_000;
const scope: RangeScope = { projectId: 7, gte: new Date(END - 3600_000), lt: new Date(END), systems: [] };
const FORCE = sql`SETTINGS force_data_skipping_indices = 'idx_attr_values'`;

/** The granules idx_attr_values left of those before it, from `EXPLAIN indexes = 1`. */
async function granules(query: SqlFragment): Promise<[number, number]> {
  const text = (await store.query<{ explain: string }>(sql`EXPLAIN indexes = 1 ${query}`))
    .map((r) => r.explain)
    .join('\n');
  const m = /Name: idx_attr_values[\s\S]*?Granules: (\d+)\/(\d+)/.exec(text);
  expect(m, text).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

beforeAll(async () => {
  store = openChdbStore({
    path: join(DIR, 'ch'),
    ttl: { spansDays: 30, metricsDays: 30 },
    maxMemoryUsage: 2 * 1024 ** 3,
    maxThreads: 2,
  });
  await store.migrate();
  await store.query(sql`INSERT INTO spans_index (project_id, system, group_id, time, trace_id, id, parent_id, type, kind, name,
      display_name, duration, count, status_code, attr_keys, attr_values, service_name)
    SELECT 7, 'http:api', intDiv(number, 2000) AS g, toDateTime64(${param.float64((END - 1800_000) / 1000)} + (number % 2000) * 0.1, 6, 'UTC'),
      generateUUIDv4(), number + 1, 0, 'http', 'server', concat('GET /r', toString(g)), concat('GET /r', toString(g)),
      1000000, 1, 'ok', ['http.route', 'http.status_code'], [concat('/r', toString(g)), '200'], 'api'
    FROM numbers(80000)`);
}, 120_000);

afterAll(async () => {
  await store?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe('attribute filters over every system read the granules that hold the value', () => {
  it('groups: `=` finds the one group and reads 1 or 2 of 10 granules', async () => {
    const built = groupsSql(scope, 'group by .name | .count | where http.route = "/r7"', { limit: 100 }).sql!;
    const rows = await store.query<{ g0: string; c0: string }>(sql`${built} ${FORCE}`);
    expect(rows.map((r) => [r.g0, Number(r.c0)])).toEqual([['GET /r7', 2000]]);
    const [read, of] = await granules(built);
    expect(of).toBe(10);
    expect(read).toBeLessThanOrEqual(2);
  });

  it('span lists: `in` reads the granules of its values only', async () => {
    const { page } = spansSql(scope, 'where http.route in ("/r3", "/r30")', {
      sortBy: '.duration',
      sortDesc: true,
      page: 1,
      limit: 10,
      eventsOnly: false,
    });
    expect(await store.query(sql`${page} ${FORCE}`)).toHaveLength(10);
    const [read] = await granules(page);
    expect(read).toBeLessThanOrEqual(4);
  });

  it('a value no span has reads nothing; a number or "" still answers as before', async () => {
    const none = groupsSql(scope, 'group by .name | .count | where http.route = "/nowhere"', { limit: 100 }).sql!;
    expect(await store.query(none)).toEqual([]);
    expect((await granules(none))[0]).toBe(0);
    // Compared as numbers: "200" and 200.0 match, so no value test narrows it.
    const num = groupsSql(scope, '.count | where http.status_code = 200.0', { limit: 100 }).sql!;
    expect(Number((await store.query<{ c0: string }>(num))[0].c0)).toBe(80000);
    const empty = groupsSql(scope, '.count | where enduser.id = ""', { limit: 100 }).sql!;
    expect(Number((await store.query<{ c0: string }>(empty))[0].c0)).toBe(80000);
  });

  it('the filter without the value test cannot use the index (what the compiler adds is what counts)', async () => {
    await expect(
      store.query(
        sql`SELECT count() FROM spans_index AS s WHERE s.project_id = 7 AND s.attr_values[indexOf(s.attr_keys, 'http.route')] = '/r7' ${FORCE}`,
      ),
    ).rejects.toThrow(/idx_attr_values/);
  });
});
