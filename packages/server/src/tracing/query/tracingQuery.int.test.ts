import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AttrKeysResponse,
  AttrValuesResponse,
  GroupsResponse,
  PercentilesResponse,
  SavedViewsResponse,
  SpansResponse,
  SystemsResponse,
  TimeseriesResponse,
  TraceResponse,
  type Span,
} from '@lantern/shared';
import { PROJECT1_TOKEN, PROJECT2_TOKEN, removeDataDir, signIn, startLantern, type RunningLantern } from '../../../../../e2e/harness';
import { GROUP_QUERIES } from './goldenQueries';
import { API_DURATIONS_MS, DEEP_DEPTH, sendTracingFixtures } from './tracingFixtures';

let lantern: RunningLantern;
let cookie: string;
const base = Math.floor((Date.now() - 20 * 60_000) / 60_000) * 60_000;
let fx: Awaited<ReturnType<typeof sendTracingFixtures>>;
const range = { time_gte: new Date(base - 30 * 60_000).toISOString(), time_lt: new Date(base + 30 * 60_000).toISOString() };

beforeAll(async () => {
  lantern = await startLantern();
  cookie = await signIn(lantern.baseUrl);
  fx = await sendTracingFixtures(
    {
      httpUrl: lantern.baseUrl,
      grpcUrl: `http://127.0.0.1:${lantern.grpcPort}`,
      dsn1: `http://${PROJECT1_TOKEN}@127.0.0.1:${lantern.httpPort}/1`,
      dsn2: `http://${PROJECT2_TOKEN}@127.0.0.1:${lantern.httpPort}/2`,
    },
    base,
  );
});
afterAll(async () => {
  await lantern?.stop();
  if (lantern) removeDataDir(lantern.dataDir);
});

async function get(path: string, params: Record<string, string | string[]> = {}, project = 1) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...range, ...params })) for (const x of [v].flat()) qs.append(k, x);
  const res = await fetch(`${lantern.baseUrl}/api/v1/tracing/${project}/${path}?${qs}`, { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as any };
}


async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${lantern.baseUrl}${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

const MIN = 60; // range is one hour: 60 one-minute buckets; all fixtures fall in bucket 30
const DEFAULT_QUERY = 'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)';
const near = (actual: number, expected: number, tolerance = 0.1) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * tolerance);
const flatten = (s: Span): Span[] => [s, ...(s.children ?? []).flatMap(flatten)];

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
    const shifted = { time_gte: new Date(base - 30 * 60_000 + 1000).toISOString(), time_lt: new Date(base + 30 * 60_000 + 1000).toISOString() };
    expect((await get('systems', shifted)).body).toEqual((await get('systems')).body);
  });

  it.each([
    [['http:all'], ['http:api']],
    [['spans:all'], ['db:postgresql', 'funcs', 'http:api', 'messaging:kafka', 'rpc:billing']],
    [['events:all'], ['log:error']],
    [['db:postgresql', 'rpc:all'], ['db:postgresql', 'rpc:billing']],
    [['all', 'http:all'], ['db:postgresql', 'funcs', 'http:api', 'log:error', 'messaging:kafka', 'rpc:billing']],
    [['db:mysql'], []],
  ])('system=%j selects %j', async (system, expected) => {
    const r = SystemsResponse.parse((await get('systems', { 'system[]': system })).body);
    expect(r.systems.map((s) => s.system)).toEqual(expected);
  });

  it('applies only the span filters of where parts', async () => {
    const r = SystemsResponse.parse((await get('systems', { query: 'where service.name = "api" | where .count > 1000 | group by host.name' })).body);
    expect(r.systems.map((s) => [s.system, s.count])).toEqual([
      ['db:postgresql', 10],
      ['http:api', 10],
      ['log:error', 2],
    ]);
  });

  it('says hasNoData for an empty project range, and keeps projects apart', async () => {
    const past = { time_gte: '2020-01-01T00:00:00Z', time_lt: '2020-01-01T01:00:00Z' };
    expect(SystemsResponse.parse((await get('systems', past)).body)).toEqual({ systems: [], hasNoData: true, query: { parts: [] } });
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
    expect(g._query).toBe(`where .group_id = ${g['.group_id']}`);
    expect(r.hasMore).toBe(false);
    expect(r.order).toEqual({ column: '.count_per_min', desc: true });
    expect(r.query.parts.map((p) => p.error)).toEqual(['', '', '', '']);

    // The row's _query selects exactly that group's spans.
    const spans = SpansResponse.parse((await get('spans', { query: `${DEFAULT_QUERY} | ${g._query}`, limit: '10' })).body);
    expect(spans.count).toBe(10);
    expect(spans.query.parts.map((p) => p.disabled)).toEqual([true, true, true, true, false]);
  });

  it.each([
    ['1 hour (minute rollup)', 30 * 60_000, 30 * 60_000],
    ['4 hours + minutes (hour and minute rollups)', 2 * 3600_000 + 7 * 60_000, 2 * 3600_000 + 3 * 60_000],
  ])('answers %s the same as from the spans', async (_label, before, after) => {
    const aligned = { time_gte: new Date(base - before).toISOString(), time_lt: new Date(base + after).toISOString() };
    const shifted = { time_gte: new Date(base - before + 1000).toISOString(), time_lt: new Date(base + after + 1000).toISOString() };
    const q = `${DEFAULT_QUERY} | .error_count | max(.duration) | p95(.duration)`;
    const rollup = GroupsResponse.parse((await get('groups', { query: q, ...aligned })).body);
    const raw = GroupsResponse.parse((await get('groups', { query: q, ...shifted })).body);
    expect(rollup.groups.length).toBe(raw.groups.length);
    expect(rollup.groups.length).toBeGreaterThan(50);
    const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
    for (const g of rollup.groups) {
      const r = byId.get(g['.group_id'])!;
      for (const k of ['.error_count', 'max(.duration)', '.system', 'display.name']) expect([k, g[k]]).toEqual([k, r[k]]);
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
    expect(desc.groups.map((g) => g._name)).toEqual(['service.name="deep"', 'service.name="api"', 'service.name="worker"', 'service.name="billing"']);
    const asc = GroupsResponse.parse((await get('groups', { query: q, sort_by: 'max(.duration)', sort_desc: '0', limit: '2' })).body);
    expect(asc.groups.map((g) => [g['service.name'], g['max(.duration)']])).toEqual([
      ['billing', 20e6],
      ['worker', 50e6],
    ]);
    expect(asc.hasMore).toBe(true);
    expect(asc.order).toEqual({ column: 'max(.duration)', desc: false });
    const having = GroupsResponse.parse((await get('groups', { query: `${q} | where .count > 5 | where .duration > 0` })).body);
    expect(having.groups.map((g) => g['service.name'])).toEqual(['deep', 'api']);
  });

  it('supports p95, aliases, uniq and per_min', async () => {
    const r = GroupsResponse.parse((await get('groups', { query: 'group by service.name | p95(.duration) as slow | uniq(enduser.id) | per_min(count()) | where service.name = api and .kind = server', 'system[]': 'spans:all' })).body);
    expect(r.columns.map((c) => c.name)).toEqual(['service.name', 'slow', 'uniq(enduser.id)', 'per_min(count())']);
    expect(r.groups).toHaveLength(1);
    near(r.groups[0].slow as number, 100e6, 0.1);
    expect(r.groups[0]['uniq(enduser.id)']).toBe(3);
    expect(r.groups[0]['per_min(count())']).toBeCloseTo(10 / MIN);
  });

  it('marks bad parts with diagnostics but still answers', async () => {
    const { status, body } = await get('groups', { query: 'group by service.name | host.name | .count | where .duration >> 1' });
    expect(status).toBe(200);
    const r = GroupsResponse.parse(body);
    expect(r.query.parts.map((p) => p.error)).toEqual(['', 'must be an agg or a group-by', '', 'unexpected ">", expected a value']);
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
    const r = GroupsResponse.parse((await get('groups', { query: `group by service.name | .count | where service.name = "api' OR 1=1 --"` })).body);
    expect(r.groups).toEqual([]);
    expect(SystemsResponse.parse((await get('systems')).body).systems).toHaveLength(6);
  });
});

describe('percentiles, group-stats and timeseries', () => {
  it('percentiles: zero-filled one-minute buckets with counts, rates and durations', async () => {
    const r = PercentilesResponse.parse((await get('percentiles', { 'system[]': 'http:api' })).body);
    expect(r.time).toHaveLength(MIN);
    expect(r.time![30]).toBe(new Date(base).toISOString().replace('.000Z', 'Z'));
    expect(r.count![30]).toBe(10);
    expect(r.count!.reduce((a, b) => a + b)).toBe(10);
    expect(r.rate![30]).toBe(10);
    expect(r.errorCount![30]).toBe(2);
    expect(r.errorRate![30]).toBe(2);
    near(r.p50![30], 55e6, 0.15);
    near(r.p99![30], 100e6, 0.05);
    expect(r.max![30]).toBe(100e6);
    expect(r.p50![0]).toBe(0);
  });

  it('percentiles: event systems get counts only; nothing matched is {}', async () => {
    const ev = PercentilesResponse.parse((await get('percentiles', { 'system[]': 'log:all' })).body);
    expect(Object.keys(ev).sort()).toEqual(['count', 'rate', 'time']);
    expect(ev.count![30]).toBe(2);
    expect((await get('percentiles', { 'system[]': 'db:mysql' })).body).toEqual({});
  });

  it('group-stats: per-column series and _time', async () => {
    const { status, body } = await get('group-stats', { query: 'where service.name = "billing"', 'column[]': ['.count', 'p99(.duration)', '.error_rate'] });
    expect(status).toBe(200);
    expect(body._time).toHaveLength(MIN);
    expect(body['.count'][30]).toBe(4);
    expect(body['.error_rate'][30]).toBeCloseTo(0.25);
    near(body['p99(.duration)'][30], 20e6, 0.05);
    expect((await get('group-stats', {})).status).toBe(400);
    expect((await get('group-stats', { column: 'host.name' })).body.code).toBe('invalid_column');
  });

  it('timeseries: the hourly rollup (no filters) and the spans (a filter matching all) agree', async () => {
    // 3 days: one-hour buckets, read from the hourly rollup
    for (const hours of [72]) {
      const r = { time_gte: new Date(base - hours * 1800_000).toISOString(), time_lt: new Date(base + hours * 1800_000).toISOString() };
      const q = 'group by .group_id | .count_per_min | .error_count | max(.duration) | p90(.duration)';
      const rollup = TimeseriesResponse.parse((await get('timeseries', { ...r, query: q })).body);
      const raw = TimeseriesResponse.parse((await get('timeseries', { ...r, query: `${q} | where .duration >= 0` })).body);
      expect(rollup.time).toEqual(raw.time);
      expect(rollup.groups.length).toBeGreaterThan(50);
      const byId = new Map(raw.groups.map((g) => [g['.group_id'], g]));
      for (const g of rollup.groups) {
        const w = byId.get(g['.group_id'])!;
        for (const k of ['.count_per_min', '.error_count', 'max(.duration)', 'display.name']) expect([k, g[k]]).toEqual([k, w[k]]);
        (g['p90(.duration)'] as number[]).forEach((v, i) => near(v, (w['p90(.duration)'] as number[])[i], 0.1));
      }
    }
  });

  it('timeseries: one series per group with zero-filled arrays', async () => {
    const r = TimeseriesResponse.parse((await get('timeseries', { query: 'group by service.name | .count_per_min | top3(.name)' })).body);
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

describe('spans', () => {
  it('pages sorted spans with count and hasMore', async () => {
    // Exception events carry their span's attributes, so the span systems are selected explicitly.
    const q = { 'system[]': 'spans:all', query: 'where service.name = "api" and .kind = server', sort_by: '.duration', sort_desc: 'true', limit: '3' };
    const p2 = SpansResponse.parse((await get('spans', { ...q, page: '2' })).body);
    expect(p2.count).toBe(10);
    expect(p2.hasMore).toBe(true);
    expect(p2.order).toEqual({ column: '.duration', desc: true });
    expect(p2.spans.map((s) => s.duration)).toEqual([70e6, 60e6, 50e6]);
    const p4 = SpansResponse.parse((await get('spans', { ...q, page: '4' })).body);
    expect(p4.spans.map((s) => s.duration)).toEqual([10e6]);
    expect(p4.hasMore).toBe(false);
    const asc = SpansResponse.parse((await get('spans', { ...q, sort_desc: 'false' })).body);
    expect(asc.spans.map((s) => s.duration / 1e6)).toEqual(API_DURATIONS_MS.slice(0, 3));
  });

  it('returns full spans with their events', async () => {
    const r = SpansResponse.parse((await get('spans', { 'system[]': 'http:api', query: 'where .status_code = error' })).body);
    expect(r.count).toBe(2);
    expect(r.spans.map((s) => s.statusCode)).toEqual(['error', 'error']);
    expect(r.spans.every((s) => s.events?.length === 1 && String(s.events[0].attrs['exception.message']).startsWith('boom'))).toBe(true);
  });

  it('validates params', async () => {
    expect((await get('spans', { time_gte: 'yesterday' })).body.code).toBe('invalid_time');
    expect((await get('spans', { time_lt: range.time_gte })).status).toBe(400);
    const noTime = await fetch(`${lantern.baseUrl}/api/v1/tracing/1/spans`, { headers: { cookie } });
    expect(noTime.status).toBe(400);
    expect(((await noTime.json()) as any).message).toContain('time_gte is required');
  });
});

describe('trace and span', () => {
  it('loads a deep trace with levels, positions and self time', async () => {
    const r = TraceResponse.parse((await send('GET', `/api/v1/tracing/1/traces/${fx.deepTrace}`)).body);
    expect(r.numSpan).toBe(DEEP_DEPTH);
    const all = flatten(r.root);
    expect(all.map((s) => s.level)).toEqual(Array.from({ length: DEEP_DEPTH }, (_, i) => i));
    const last = all[DEEP_DEPTH - 1];
    expect(last.startPct).toBeCloseTo(0.49);
    expect(last.endPct).toBeCloseTo(0.51);
    expect(r.root.durationSelf).toBe(2e6);
    expect(r.trace.duration).toBe(100e6);
  });

  it('attaches events and serves single spans', async () => {
    const r = TraceResponse.parse((await send('GET', `/api/v1/tracing/1/traces/${fx.apiTraces[3]}`)).body);
    expect(r.root.events?.map((e) => e.name)).toEqual(['Error: boom 3']);
    const span = await send('GET', `/api/v1/tracing/1/traces/${fx.apiTraces[3]}/${r.root.id}`);
    expect(span.body.span.events).toHaveLength(1);
    expect((await send('GET', `/api/v1/tracing/2/traces/${fx.apiTraces[3]}`)).status).toBe(404);
  });
});

describe('attribute keys and values, pinned facets', () => {
  it('lists keys core-first with pinned flags that follow the user pins', async () => {
    const r = AttrKeysResponse.parse((await get('attr-keys', { 'system[]': 'http:api' })).body);
    const keys = r.items.map((i) => i.value);
    expect(keys.slice(0, 2)).toEqual(['service.name', 'host.name']);
    expect(keys).toEqual(expect.arrayContaining(['enduser.id', 'http.route', '.system', '.name', '.status_code']));
    expect(r.items.find((i) => i.value === 'service.name')!.pinned).toBe(true);
    // Attributes kept in their own columns count as keys where a row has them, and only there.
    const db = AttrKeysResponse.parse((await get('attr-keys', { 'system[]': 'db:postgresql' })).body).items.map((i) => i.value);
    expect(db).toEqual(expect.arrayContaining(['db.system', 'db.statement', 'db.sql.table']));
    expect(keys).not.toContain('db.statement');
    expect(r.items.find((i) => i.value === 'enduser.id')!.pinned).toBe(false);

    expect((await send('POST', '/api/v1/pinned-facets', { attr: 'enduser.id' })).body).toEqual({ attr: 'enduser.id' });
    expect((await send('DELETE', '/api/v1/pinned-facets', { attr: 'service.name' })).status).toBe(200);
    const after = AttrKeysResponse.parse((await get('attr-keys', { 'system[]': 'http:api' })).body);
    expect(after.items.find((i) => i.value === 'enduser.id')!.pinned).toBe(true);
    expect(after.items.find((i) => i.value === 'service.name')!.pinned).toBe(false);
    const pins = (await send('GET', '/api/v1/pinned-facets')).body.attrs as string[];
    expect(pins).toContain('enduser.id');
    expect(pins).not.toContain('service.name');
    expect((await send('POST', '/api/v1/pinned-facets', { attr: ' ' })).status).toBe(400);
  });

  it('lists values with counts, ignoring the filter on the same key, with search', async () => {
    const all = AttrValuesResponse.parse((await get('attr-values', { attr_key: 'service.name', query: 'where service.name = "api"' })).body);
    expect(all.items.map((i) => [i.value, i.count])).toEqual([
      ['deep', 50],
      ['api', 22],
      ['worker', 5],
      ['billing', 4],
    ]);
    expect(all.hasMore).toBe(false);
    const users = AttrValuesResponse.parse((await get('attr-values', { attr_key: 'enduser.id' })).body);
    expect(users.items.map((i) => [i.value, i.count])).toEqual([
      // 10 root spans plus the 2 exception events, which carry their span's attributes
      ['user-0', 5],
      ['user-1', 4],
      ['user-2', 3],
    ]);
    const search = AttrValuesResponse.parse((await get('attr-values', { attr_key: 'span.system', search_input: 'KAF' })).body);
    expect(search.items.map((i) => i.value)).toEqual(['messaging:kafka']);
    expect((await get('attr-values', {})).body.message).toContain('"attr_key" query param is required');
    expect((await get('attr-values', { attr_key: '.count' })).status).toBe(400);
  });
});

describe('saved views', () => {
  it('creates, lists pinned first then newest, pins, unpins and deletes; per project', async () => {
    const mk = async (name: string) => (await send('POST', '/api/v1/tracing/1/saved-views', { name, route: 'SpanGroupList', params: { projectId: 1 }, query: { query: DEFAULT_QUERY } })).body.view;
    const a = await mk('A');
    const b = await mk('B');
    const c = await mk('C');
    expect(a.user.email).toBe('admin@lantern.local');
    expect((await send('PUT', `/api/v1/tracing/1/saved-views/${a.id}/pinned`)).status).toBe(200);
    let list = SavedViewsResponse.parse((await send('GET', '/api/v1/tracing/1/saved-views')).body);
    expect(list.views.map((v) => [v.name, v.pinned])).toEqual([
      ['A', true],
      ['C', false],
      ['B', false],
    ]);
    expect(list.views[0].query).toEqual({ query: DEFAULT_QUERY });
    await send('PUT', `/api/v1/tracing/1/saved-views/${a.id}/unpinned`);
    expect((await send('DELETE', `/api/v1/tracing/1/saved-views/${c.id}`)).status).toBe(200);
    list = SavedViewsResponse.parse((await send('GET', '/api/v1/tracing/1/saved-views')).body);
    expect(list.views.map((v) => v.name)).toEqual(['B', 'A']);
    expect(SavedViewsResponse.parse((await send('GET', '/api/v1/tracing/2/saved-views')).body).views).toEqual([]);
    expect((await send('DELETE', `/api/v1/tracing/2/saved-views/${b.id}`)).status).toBe(404);
    expect((await send('PUT', `/api/v1/tracing/1/saved-views/999999/pinned`)).status).toBe(404);
    const bad = await send('POST', '/api/v1/tracing/1/saved-views', { name: '', route: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("name can't be empty");
  });
});

describe('access', () => {
  it('needs a session and an existing project', async () => {
    const qs = new URLSearchParams(range);
    expect((await fetch(`${lantern.baseUrl}/api/v1/tracing/1/groups?${qs}`)).status).toBe(401);
    expect((await fetch(`${lantern.baseUrl}/api/v1/pinned-facets`, { method: 'POST' })).status).toBe(401);
    expect((await get('groups', { query: DEFAULT_QUERY }, 999)).status).toBe(404);
    const p2 = GroupsResponse.parse((await get('groups', { query: 'group by service.name | .count' }, 2)).body);
    expect(p2.groups.map((g) => [g['service.name'], g['.count']])).toEqual([['other', 3]]);
  });
});
