import { describe, expect, it } from 'vitest';
import {
  GroupsResponse,
  PercentilesResponse,
  SpansResponse,
  SystemsResponse,
  TimeseriesResponse,
  toText,
} from '@lantern/shared';
import { GROUP_QUERIES } from './goldenQueries';
import { DEFAULT_QUERY, tracingTestServer } from './tracingTestServer';

/** Systems, groups, percentiles, group-stats and timeseries over the tracing fixtures (real OTLP, real engine). */
const { base, get } = tracingTestServer();

const MIN = 60; // range is one hour: 60 one-minute buckets; all fixtures fall in bucket 30
const near = (actual: number, expected: number, tolerance = 0.1) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * tolerance);

describe('systems', () => {
  it('counts spans, errors and groups per system, rate per minute over the range', async () => {
    const { status, body } = await get('systems');
    expect(status).toBe(200);
    const r = SystemsResponse.parse(body);
    expect(r.hasNoData).toBe(false);
    expect(r.systems.map((s) => [s.system, s.count, s.errorCount, s.groupCount])).toEqual([
      ['db:postgresql', 10, 0, 1],
      ['funcs', 50, 0, 50],
      ['http:api', 10, 2, 1],
      ['log:error', 2, 2, 1],
      ['messaging:kafka', 5, 0, 1],
      ['rpc:billing', 4, 1, 1],
    ]);
    const http = r.systems.find((s) => s.system === 'http:api')!;
    expect(http.rate).toBeCloseTo(10 / MIN);
    expect(http.errorRate).toBeCloseTo(0.2);
    expect(r.systems.every((s) => s.projectId === 1)).toBe(true);
  });

  it('answers the same from the rollups (whole minutes) as from the spans', async () => {
    const shifted = {
      time_gte: new Date(base - 30 * 60_000 + 1000).toISOString(),
      time_lt: new Date(base + 30 * 60_000 + 1000).toISOString(),
    };
    expect((await get('systems', shifted)).body).toEqual((await get('systems')).body);
  });

  it.each([
    [['http:all'], ['http:api']],
    [['spans:all'], ['db:postgresql', 'funcs', 'http:api', 'messaging:kafka', 'rpc:billing']],
    [['events:all'], ['log:error']],
    [
      ['db:postgresql', 'rpc:all'],
      ['db:postgresql', 'rpc:billing'],
    ],
    [
      ['all', 'http:all'],
      ['db:postgresql', 'funcs', 'http:api', 'log:error', 'messaging:kafka', 'rpc:billing'],
    ],
    [['db:mysql'], []],
  ])('system=%j selects %j', async (system, expected) => {
    const r = SystemsResponse.parse((await get('systems', { 'system[]': system })).body);
    expect(r.systems.map((s) => s.system)).toEqual(expected);
  });

  it('applies only the span filters of where parts', async () => {
    const r = SystemsResponse.parse(
      (await get('systems', { query: 'where service.name = "api" | where .count > 1000 | group by host.name' })).body,
    );
    expect(r.systems.map((s) => [s.system, s.count])).toEqual([
      ['db:postgresql', 10],
      ['http:api', 10],
      ['log:error', 2],
    ]);
  });

  it('says hasNoData for an empty project range, and keeps projects apart', async () => {
    const past = { time_gte: '2020-01-01T00:00:00Z', time_lt: '2020-01-01T01:00:00Z' };
    expect(SystemsResponse.parse((await get('systems', past)).body)).toEqual({
      systems: [],
      hasNoData: true,
      query: { parts: [] },
    });
    const p2 = SystemsResponse.parse((await get('systems', {}, 2)).body);
    expect(p2.systems.map((s) => [s.projectId, s.system, s.count])).toEqual([[2, 'http:other', 3]]);
  });
});

describe('groups', () => {
  it('answers the default explorer query with columns, units and row helpers', async () => {
    const { status, body } = await get('groups', { query: DEFAULT_QUERY, 'system[]': 'http:all' });
    expect(status).toBe(200);
    const r = GroupsResponse.parse(body);
    expect(r.columns).toEqual([
      { name: '.group_id', unit: '', isGroup: true, isNum: false },
      { name: '.count_per_min', unit: '', isGroup: false, isNum: true },
      { name: '.error_rate', unit: 'utilization', isGroup: false, isNum: true },
      { name: 'p50(.duration)', unit: 'nanoseconds', isGroup: false, isNum: true },
      { name: 'p90(.duration)', unit: 'nanoseconds', isGroup: false, isNum: true },
      { name: 'p99(.duration)', unit: 'nanoseconds', isGroup: false, isNum: true },
    ]);
    expect(r.groups).toHaveLength(1);
    const g = r.groups[0];
    expect(g['.count_per_min']).toBeCloseTo(10 / MIN);
    expect(g['.error_rate']).toBeCloseTo(0.2);
    near(g['p50(.duration)'] as number, 55e6, 0.15);
    near(g['p90(.duration)'] as number, 95e6, 0.1);
    near(g['p99(.duration)'] as number, 100e6, 0.05);
    expect(g['.system']).toBe('http:api');
    expect(g._name).toBe('GET /users/:id');
    expect(g._query).toBe(`where .group_id = ${toText(g['.group_id'])}`);
    expect(r.hasMore).toBe(false);
    expect(r.order).toEqual({ column: '.count_per_min', desc: true });
    expect(r.query.parts.map((p) => p.error)).toEqual(['', '', '', '']);

    // The row's _query selects exactly that group's spans.
    const spans = SpansResponse.parse(
      (await get('spans', { query: `${DEFAULT_QUERY} | ${g._query}`, limit: '10' })).body,
    );
    expect(spans.count).toBe(10);
    expect(spans.query.parts.map((p) => p.disabled)).toEqual([true, true, true, true, false]);
  });

  it.each([
    ['1 hour (minute rollup)', 30 * 60_000, 30 * 60_000],
    ['4 hours + minutes (hour and minute rollups)', 2 * 3600_000 + 7 * 60_000, 2 * 3600_000 + 3 * 60_000],
  ])('answers %s the same as from the spans', async (_label, before, after) => {
    const aligned = { time_gte: new Date(base - before).toISOString(), time_lt: new Date(base + after).toISOString() };
    const shifted = {
      time_gte: new Date(base - before + 1000).toISOString(),
      time_lt: new Date(base + after + 1000).toISOString(),
    };
    const q = `${DEFAULT_QUERY} | .error_count | max(.duration) | p95(.duration)`;
    const rollup = GroupsResponse.parse((await get('groups', { query: q, ...aligned })).body);
    const raw = GroupsResponse.parse((await get('groups', { query: q, ...shifted })).body);
    expect(rollup.groups.length).toBe(raw.groups.length);
    expect(rollup.groups.length).toBeGreaterThan(50);
    const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
    for (const g of rollup.groups) {
      const r = byId.get(g['.group_id'])!;
      for (const k of ['.error_count', 'max(.duration)', '.system', 'display.name'])
        expect([k, g[k]]).toEqual([k, r[k]]);
      expect(g['.count_per_min']).toBeCloseTo(r['.count_per_min'] as number);
      for (const k of ['p50(.duration)', 'p99(.duration)', 'p95(.duration)']) near(g[k] as number, r[k] as number, 0.1);
    }
  });

  it('sorts server-side, pages with hasMore, and filters aggregates in HAVING', async () => {
    const q = 'group by service.name | .count | max(.duration)';
    const desc = GroupsResponse.parse((await get('groups', { query: q, sort_by: '.count', sort_desc: 'true' })).body);
    expect(desc.groups.map((g) => [g['service.name'], g['.count']])).toEqual([
      ['deep', 50],
      ['api', 22],
      ['worker', 5],
      ['billing', 4],
    ]);
    expect(desc.groups.map((g) => g._name)).toEqual([
      'service.name="deep"',
      'service.name="api"',
      'service.name="worker"',
      'service.name="billing"',
    ]);
    const asc = GroupsResponse.parse(
      (await get('groups', { query: q, sort_by: 'max(.duration)', sort_desc: '0', limit: '2' })).body,
    );
    expect(asc.groups.map((g) => [g['service.name'], g['max(.duration)']])).toEqual([
      ['billing', 20e6],
      ['worker', 50e6],
    ]);
    expect(asc.hasMore).toBe(true);
    expect(asc.order).toEqual({ column: 'max(.duration)', desc: false });
    const having = GroupsResponse.parse(
      (await get('groups', { query: `${q} | where .count > 5 | where .duration > 0` })).body,
    );
    expect(having.groups.map((g) => g['service.name'])).toEqual(['deep', 'api']);
  });

  it('supports p95, aliases, uniq and per_min', async () => {
    const r = GroupsResponse.parse(
      (
        await get('groups', {
          query:
            'group by service.name | p95(.duration) as slow | uniq(enduser.id) | per_min(count()) | where service.name = api and .kind = server',
          'system[]': 'spans:all',
        })
      ).body,
    );
    expect(r.columns.map((c) => c.name)).toEqual(['service.name', 'slow', 'uniq(enduser.id)', 'per_min(count())']);
    expect(r.groups).toHaveLength(1);
    near(r.groups[0].slow as number, 100e6, 0.1);
    expect(r.groups[0]['uniq(enduser.id)']).toBe(3);
    expect(r.groups[0]['per_min(count())']).toBeCloseTo(10 / MIN);
  });

  it('marks bad parts with diagnostics but still answers', async () => {
    const { status, body } = await get('groups', {
      query: 'group by service.name | host.name | .count | where .duration >> 1',
    });
    expect(status).toBe(200);
    const r = GroupsResponse.parse(body);
    expect(r.query.parts.map((p) => p.error)).toEqual([
      '',
      'must be an agg or a group-by',
      '',
      'unexpected ">", expected a value',
    ]);
    expect(r.query.parts[3].errorRange).toEqual({ start: 62, end: 63 }); // the second '>'
    expect(r.groups).toHaveLength(4);
  });

  it('answers 400 invalid_query with the backend query text when the engine refuses', async () => {
    const { status, body } = await get('groups', { query: 'group by .name | .count | where .time > "not a time"' });
    expect(status).toBe(400);
    expect(body.code).toBe('invalid_query');
    expect(body.message).toBeTruthy();
    expect(body.query).toContain('SELECT s.name AS g0');
  });

  it('runs every golden query against the engine without an engine error', async () => {
    for (const q of GROUP_QUERIES) {
      const { status, body } = await get('groups', { query: q });
      expect([q, status, body.code]).toEqual([q, 200, undefined]);
    }
  });

  it('keeps injection attempts as data', async () => {
    const r = GroupsResponse.parse(
      (await get('groups', { query: `group by service.name | .count | where service.name = "api' OR 1=1 --"` })).body,
    );
    expect(r.groups).toEqual([]);
    expect(SystemsResponse.parse((await get('systems')).body).systems).toHaveLength(6);
  });
});

describe('percentiles, group-stats and timeseries', () => {
  it('percentiles: one-minute buckets with counts and rates (0 when empty) and durations (null when empty)', async () => {
    const r = PercentilesResponse.parse((await get('percentiles', { 'system[]': 'http:api' })).body);
    expect(r.time).toHaveLength(MIN);
    expect(r.time![30]).toBe(new Date(base).toISOString().replace('.000Z', 'Z'));
    expect(r.count![30]).toBe(10);
    expect(r.count!.reduce((a, b) => a + b)).toBe(10);
    expect(r.rate![30]).toBe(10);
    expect(r.errorCount![30]).toBe(2);
    expect(r.errorRate![30]).toBe(2);
    near(r.p50![30]!, 55e6, 0.15);
    near(r.p99![30]!, 100e6, 0.05);
    expect(r.max![30]).toBe(100e6);
    expect(r.count![0]).toBe(0);
    expect(r.rate![0]).toBe(0);
    expect(r.errorRate![0]).toBe(0);
    expect([r.p50![0], r.p90![0], r.p99![0], r.max![0]]).toEqual([null, null, null, null]);
  });

  it('percentiles: event systems get counts only; nothing matched is {}', async () => {
    const ev = PercentilesResponse.parse((await get('percentiles', { 'system[]': 'log:all' })).body);
    expect(Object.keys(ev).sort()).toEqual(['count', 'rate', 'time']);
    expect(ev.count![30]).toBe(2);
    expect((await get('percentiles', { 'system[]': 'db:mysql' })).body).toEqual({});
  });

  it('group-stats: per-column series and _time', async () => {
    const { status, body } = await get('group-stats', {
      query: 'where service.name = "billing"',
      'column[]': ['.count', 'p99(.duration)', '.error_rate'],
    });
    expect(status).toBe(200);
    expect(body._time).toHaveLength(MIN);
    expect(body['.count'][30]).toBe(4);
    expect(body['.error_rate'][30]).toBeCloseTo(0.25);
    near(body['p99(.duration)'][30], 20e6, 0.05);
    expect((await get('group-stats', {})).status).toBe(400);
    expect((await get('group-stats', { column: 'host.name' })).body.code).toBe('invalid_column');
  });

  it.each([
    ['the systems', 'group by .system | .count_per_min | .error_rate | p50(.duration) | max(.duration)', []],
    ['the span groups of a service, with a filter', `${DEFAULT_QUERY} | where service.name = "api"`, ['all']],
    ['one group (no group by)', '.count | p99(.duration)', ['spans:all']],
  ])(
    'groups with stats_column: each of the first rows carries what group-stats answers for it (%s)',
    async (_what, query, system) => {
      const columns = ['.count_per_min', '.error_rate', 'p50(.duration)', 'p99(.duration)'];
      const { status, body } = await get('groups', {
        query,
        'system[]': system,
        'stats_column[]': columns,
        stats_rows: '3',
      });
      expect(status).toBe(200);
      const r = GroupsResponse.parse(body);
      expect(r.groups.length).toBeGreaterThan(0);
      const first = r.groups.slice(0, 3);
      expect(Object.keys(r.stats!).sort()).toEqual(first.map((g) => g._id).sort());
      for (const g of first) {
        const alone = await get('group-stats', {
          query: [query, g._query].filter(Boolean).join(' | '),
          'system[]': system,
          'column[]': columns,
        });
        expect(alone.status).toBe(200);
        expect(r.stats![g._id], g._name).toEqual(alone.body);
        expect(r.stats![g._id]._time).toHaveLength(MIN);
      }
      // Without stats_column the answer has no stats; a column that is not an aggregate is refused.
      expect(GroupsResponse.parse((await get('groups', { query })).body).stats).toBeUndefined();
      const bad = await get('groups', { query, 'stats_column[]': ['host.name'] });
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_column']);
    },
  );

  it('timeseries: the hourly rollup (no filters) and the spans (a filter matching all) agree', async () => {
    // 3 days: one-hour buckets, read from the hourly rollup
    for (const hours of [72]) {
      const r = {
        time_gte: new Date(base - hours * 1800_000).toISOString(),
        time_lt: new Date(base + hours * 1800_000).toISOString(),
      };
      const q = 'group by .group_id | .count_per_min | .error_count | max(.duration) | p90(.duration)';
      const rollup = TimeseriesResponse.parse((await get('timeseries', { ...r, query: q })).body);
      const raw = TimeseriesResponse.parse(
        (await get('timeseries', { ...r, query: `${q} | where .duration >= 0` })).body,
      );
      expect(rollup.time).toEqual(raw.time);
      expect(rollup.groups.length).toBeGreaterThan(50);
      const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
      for (const g of rollup.groups) {
        const w = byId.get(g['.group_id'])!;
        for (const k of ['.count_per_min', '.error_count', 'max(.duration)', 'display.name'])
          expect([k, g[k]]).toEqual([k, w[k]]);
        (g['p90(.duration)'] as number[]).forEach((v, i) => near(v, (w['p90(.duration)'] as number[])[i], 0.1));
      }
    }
  });

  it('timeseries: one series per group with zero-filled arrays', async () => {
    const r = TimeseriesResponse.parse(
      (await get('timeseries', { query: 'group by service.name | .count_per_min | top3(.name)' })).body,
    );
    expect(r.columns.map((c) => c.name)).toEqual(['service.name', '.count_per_min']);
    expect(r.time).toHaveLength(MIN);
    const byService = Object.fromEntries(r.groups.map((g) => [g['service.name'], g['.count_per_min'] as number[]]));
    expect(Object.keys(byService).sort()).toEqual(['api', 'billing', 'deep', 'worker']);
    expect(byService.api).toHaveLength(MIN);
    expect(byService.api[30]).toBe(22);
    expect(byService.api.reduce((a: number, b: number) => a + b)).toBe(22);
    expect(byService.deep[30]).toBe(50);
  });
});
