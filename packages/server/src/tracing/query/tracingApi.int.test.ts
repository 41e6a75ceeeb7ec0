import { describe, expect, it } from 'vitest';
import {
  AttrKeysResponse,
  AttrValuesResponse,
  ErrorBody,
  GroupsResponse,
  MAX_SAVED_VIEWS,
  SavedViewsResponse,
  type Span,
  SpansResponse,
  TraceResponse,
} from '@lantern/shared';
import { API_DURATIONS_MS, DEEP_DEPTH } from './tracingFixtures';
import { DEFAULT_QUERY, tracingTestServer } from './tracingTestServer';

/** Span lists, traces, attribute keys and values, pinned facets, saved views and access, over the tracing fixtures. */
const { range, get, send, baseUrl, cookie, fixtures } = tracingTestServer();

const flatten = (s: Span): Span[] => [s, ...(s.children ?? []).flatMap(flatten)];

describe('spans', () => {
  it('pages sorted spans with count and hasMore', async () => {
    // Exception events carry their span's attributes, so the span systems are selected explicitly.
    const q = {
      'system[]': 'spans:all',
      query: 'where service.name = "api" and .kind = server',
      sort_by: '.duration',
      sort_desc: 'true',
      limit: '3',
    };
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
    const r = SpansResponse.parse(
      (await get('spans', { 'system[]': 'http:api', query: 'where .status_code = error' })).body,
    );
    expect(r.count).toBe(2);
    expect(r.spans.map((s) => s.statusCode)).toEqual(['error', 'error']);
    expect(
      r.spans.every((s) => s.events?.length === 1 && String(s.events[0].attrs['exception.message']).startsWith('boom')),
    ).toBe(true);
  });

  it('validates params', async () => {
    expect((await get('spans', { time_gte: 'yesterday' })).body.code).toBe('invalid_time');
    expect((await get('spans', { time_lt: range.time_gte })).status).toBe(400);
    const noTime = await fetch(`${baseUrl()}/api/v1/tracing/1/spans`, { headers: { cookie: cookie() } });
    expect(noTime.status).toBe(400);
    expect(ErrorBody.parse(await noTime.json()).message).toContain('time_gte is required');
  });
});

describe('trace and span', () => {
  it('loads a deep trace with levels, positions and self time', async () => {
    const r = TraceResponse.parse((await send('GET', `/api/v1/tracing/1/traces/${fixtures().deepTrace}`)).body);
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
    const r = TraceResponse.parse((await send('GET', `/api/v1/tracing/1/traces/${fixtures().apiTraces[3]}`)).body);
    expect(r.root.events?.map((e) => e.name)).toEqual(['Error: boom 3']);
    const span = await send('GET', `/api/v1/tracing/1/traces/${fixtures().apiTraces[3]}/${r.root.id}`);
    expect(span.body.span.events).toHaveLength(1);
    expect((await send('GET', `/api/v1/tracing/2/traces/${fixtures().apiTraces[3]}`)).status).toBe(404);
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
    const db = AttrKeysResponse.parse((await get('attr-keys', { 'system[]': 'db:postgresql' })).body).items.map(
      (i) => i.value,
    );
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
    const all = AttrValuesResponse.parse(
      (await get('attr-values', { attr_key: 'service.name', query: 'where service.name = "api"' })).body,
    );
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
    const search = AttrValuesResponse.parse(
      (await get('attr-values', { attr_key: 'span.system', search_input: 'KAF' })).body,
    );
    expect(search.items.map((i) => i.value)).toEqual(['messaging:kafka']);
    expect((await get('attr-values', {})).body.message).toContain('"attr_key" query param is required');
    expect((await get('attr-values', { attr_key: '.count' })).status).toBe(400);
  });
});

describe('saved views', () => {
  it('creates, lists pinned first then newest, pins, unpins and deletes; per project', async () => {
    const mk = async (name: string) =>
      (
        await send('POST', '/api/v1/tracing/1/saved-views', {
          name,
          route: 'SpanGroupList',
          params: { projectId: 1 },
          query: { query: DEFAULT_QUERY },
        })
      ).body.view;
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
    // Another project's view: 403, as every per-id route answers; an id that exists nowhere: 404.
    for (const [method, path] of [
      ['DELETE', `/api/v1/tracing/2/saved-views/${b.id}`],
      ['PUT', `/api/v1/tracing/2/saved-views/${b.id}/pinned`],
      ['PUT', `/api/v1/tracing/2/saved-views/${b.id}/unpinned`],
    ] as const) {
      const r = await send(method, path);
      expect([r.status, r.body.code]).toEqual([403, 'forbidden']);
    }
    expect((await send('PUT', `/api/v1/tracing/1/saved-views/999999/pinned`)).status).toBe(404);
    expect((await send('DELETE', `/api/v1/tracing/2/saved-views/999999`)).status).toBe(404);
    expect((await send('DELETE', `/api/v1/tracing/1/saved-views/${b.id}`)).status).toBe(200);
    const bad = await send('POST', '/api/v1/tracing/1/saved-views', { name: '', route: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("name can't be empty");
  });

  it(`holds the cap of ${MAX_SAVED_VIEWS} saved views per project under concurrent saves (PostgreSQL too)`, async () => {
    const save = (name: string) =>
      send('POST', '/api/v1/tracing/1/saved-views', { name, route: 'SpanList', params: { projectId: 1 } });
    const have = SavedViewsResponse.parse((await send('GET', '/api/v1/tracing/1/saved-views')).body).views.length;
    for (let i = have; i < MAX_SAVED_VIEWS - 10; i++) expect((await save(`Filler ${i}`)).status).toBe(200);
    // Before, nothing counted: every save succeeded, and the list (100 at most) hid the oldest.
    // A burst must stop at the cap exactly: counting, then inserting, would overshoot it.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => save(`Burst ${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body])).toEqual(
      Array(20).fill([
        400,
        { code: 'too_many_saved_views', message: `a project can't have more than ${MAX_SAVED_VIEWS} saved views` },
      ]),
    );
    const list = SavedViewsResponse.parse((await send('GET', '/api/v1/tracing/1/saved-views')).body).views;
    expect(list).toHaveLength(MAX_SAVED_VIEWS);
    // Deleting one makes room for one; another project has its own.
    expect((await send('DELETE', `/api/v1/tracing/1/saved-views/${list[0].id}`)).status).toBe(200);
    expect((await save('Room')).status).toBe(200);
    expect((await save('No room')).status).toBe(400);
    const other = await send('POST', '/api/v1/tracing/2/saved-views', { name: 'Theirs', route: 'SpanList' });
    expect(other.status).toBe(200);
  });
});

describe('access', () => {
  it('needs a session and an existing project', async () => {
    const qs = new URLSearchParams(range);
    expect((await fetch(`${baseUrl()}/api/v1/tracing/1/groups?${qs}`)).status).toBe(401);
    expect((await fetch(`${baseUrl()}/api/v1/pinned-facets`, { method: 'POST' })).status).toBe(401);
    expect((await get('groups', { query: DEFAULT_QUERY }, 999)).status).toBe(404);
    const p2 = GroupsResponse.parse((await get('groups', { query: 'group by service.name | .count' }, 2)).body);
    expect(p2.groups.map((g) => [g['service.name'], g['.count']])).toEqual([['other', 3]]);
  });
});
