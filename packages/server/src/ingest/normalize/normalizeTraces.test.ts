import { describe, it, expect } from 'vitest';
import type { OtlpTracesRequest } from '../otlp';
import { normalizeTraces, type NormalizeOptions } from './index';
import { otlpRequest, otlpSpan, START_NS, TRACE_ID, type RequestSpec, type SpanSpec } from './spanFixture';

const options: NormalizeOptions = { projectId: 7, groupByEnv: false, groupFuncsByService: false };

function one(spec: SpanSpec, req: RequestSpec = {}, opts: Partial<NormalizeOptions> = {}) {
  const rows = normalizeTraces(otlpRequest([otlpSpan(spec)], req), { ...options, ...opts });
  return rows[0];
}

describe('normalizeTraces: span rows (reference ingest §2.2)', () => {
  it('maps ids, times and the basic fields', () => {
    const row = one({ spanId: '0102030405060708', parentSpanId: 'ffffffffffffffff', name: 'work' });
    expect(row).toMatchObject({
      projectId: 7,
      traceId: TRACE_ID,
      id: 0x0102030405060708n,
      parentId: 0xffffffffffffffffn,
      standalone: false,
      eventName: '',
      timeNs: START_NS,
      durationNs: 1_500_000,
      statusCode: 'unset',
      statusMessage: '',
      events: [],
      links: [],
    });
  });

  it('a root span has parentId 0', () => {
    expect(one({ parentSpanId: '' }).parentId).toBe(0n);
  });

  it('QUIRK fixed: end before start gives duration 0, not negative', () => {
    expect(one({ endTimeUnixNano: START_NS - 5n }).durationNs).toBe(0);
  });

  it.each([
    [0, 'internal'],
    [2, 'server'],
    [3, 'client'],
    [4, 'producer'],
    [5, 'consumer'],
  ])('kind %i → %s', (kind, want) => {
    expect(one({ kind }).kind).toBe(want);
  });

  it.each([
    [{ code: 0, message: '' }, 'unset', ''],
    [{ code: 1, message: '' }, 'ok', ''],
    [{ code: 2, message: 'timeout' }, 'error', 'timeout'],
  ])('status %j → %s', (status, code, message) => {
    const row = one({ status });
    expect([row.statusCode, row.statusMessage]).toEqual([code, message]);
  });

  it('merges attributes resource → scope → span, later wins, keys cleaned', () => {
    const row = one(
      { attrs: { 'Span.Only': 1, who: 'span' } },
      {
        resource: { 'service.name': 'api', who: 'resource', 'host.name': 'h' },
        scope: { name: 'lib', version: '1.2', attrs: { who: 'scope', 'scope.attr': true } },
      },
    );
    expect(row.attrs).toEqual({
      'service.name': 'api',
      who: 'span',
      'host.name': 'h',
      'otel.library.name': 'lib',
      'otel.library.version': '1.2',
      'scope.attr': true,
      'span.only': 1,
    });
  });

  it('empty scope name/version add no otel.library keys', () => {
    expect(Object.keys(one({}, { scope: {} }).attrs)).toEqual(['service.name']);
  });

  it('applies aliases from resource attributes too', () => {
    expect(one({}, { resource: { service: 'legacy' } }).system).toBe('funcs');
    expect(one({ attrs: { 'http.route': '/a' } }, { resource: { service: 'legacy' } }).system).toBe('http:legacy');
  });

  it('converts links', () => {
    const row = one({
      links: [
        {
          traceId: 'ab'.repeat(16),
          spanId: '00000000000000ff',
          traceState: '',
          attributes: [{ key: 'Link-Kind', value: { stringValue: 'follows' } }],
        },
      ],
    });
    expect(row.links).toEqual([{ traceId: 'ab'.repeat(16), spanId: 255n, attrs: { link_kind: 'follows' } }]);
    expect(row.linkCount).toBe(1);
  });
});

describe('normalizeTraces: system, group id, display name (§2.7, §2.9, §2.10)', () => {
  it('db span: system, display name from the statement, group shared by statement shape', () => {
    const a = one({ attrs: { 'db.system': 'postgresql', 'db.statement': 'SELECT * FROM users WHERE id = 1' } });
    const b = one({ attrs: { 'db.system': 'postgresql', 'db.statement': 'SELECT * FROM users WHERE id = 2' } });
    const c = one({ attrs: { 'db.system': 'postgresql', 'db.statement': 'DELETE FROM users WHERE id = 2' } });
    expect([a.type, a.system, a.displayName]).toEqual(['db', 'db:postgresql', 'SELECT * FROM users WHERE id = 1']);
    expect([a.groupName, b.groupName, c.groupName]).toEqual([
      'SELECT * FROM users WHERE id = ?',
      'SELECT * FROM users WHERE id = ?',
      'DELETE FROM users WHERE id = ?',
    ]);
    expect(a.groupId).toBe(b.groupId);
    expect(a.groupId).not.toBe(c.groupId);
  });

  it('redis spans group by command whatever the key, named by the templated statement', () => {
    const redis = (statement: string) =>
      one({ name: 'redis', attrs: { 'db.system': 'redis', 'db.statement': statement } });
    const [a, b, c] = [redis('GET cart:42:items'), redis('get session:7f3a9c21'), redis('SET cart:42:items 1')];
    expect([a.displayName, a.groupName, b.groupName]).toEqual([
      'GET cart:42:items',
      'GET cart:<num>:items',
      'get session:<hex>',
    ]);
    expect(a.groupId).toBe(b.groupId);
    expect(a.groupId).not.toBe(c.groupId);
  });

  it('http spans group by method and route, not target', () => {
    const span = (method: string, target: string) =>
      one({
        name: 'GET /u/:id',
        kind: 2,
        attrs: { 'http.method': method, 'http.route': '/u/:id', 'http.target': target },
      });
    expect(span('GET', '/u/1').groupId).toBe(span('GET', '/u/2').groupId);
    expect(span('GET', '/u/1').groupId).not.toBe(span('POST', '/u/1').groupId);
  });

  it('groupByEnv separates environments only when on', () => {
    const env = (e: string, groupByEnv: boolean) =>
      one({}, { resource: { 'service.name': 'api', 'deployment.environment': e } }, { groupByEnv }).groupId;
    expect(env('prod', false)).toBe(env('staging', false));
    expect(env('prod', true)).not.toBe(env('staging', true));
  });

  it('groupFuncsByService puts the service in root function spans', () => {
    expect(one({ parentSpanId: '' }, {}, { groupFuncsByService: true }).system).toBe('funcs:api');
    expect(one({ parentSpanId: '' }).system).toBe('funcs');
  });

  it('display.name overrides and is removed from the attributes', () => {
    const row = one({ attrs: { 'display.name': 'Checkout 42', 'db.statement': 'SELECT 1' } });
    expect([row.displayName, row.groupName]).toEqual(['Checkout 42', 'Checkout 42']);
    expect(row.attrs['display.name']).toBeUndefined();
  });

  it('display name falls back to the span name, then <empty>', () => {
    expect(one({ name: 'work' }).displayName).toBe('work');
    expect(one({ name: '' }).displayName).toBe('<empty>');
  });

  it('truncates name to 80 bytes and system to 200, but groups by the full name', () => {
    const long = 'n'.repeat(100);
    const row = one({ name: long });
    expect(row.name).toBe('n'.repeat(77) + '...');
    expect(row.displayName).toBe(row.name);
    expect(row.groupId).not.toBe(one({ name: 'n'.repeat(99) }).groupId);
    const sys = one({ attrs: { 'messaging.system': 'm'.repeat(300) } }).system;
    expect(Buffer.byteLength(sys)).toBe(200);
  });
});

describe('normalizeTraces: request shapes', () => {
  it('handles several resources and scopes, and empty ones', () => {
    const req: OtlpTracesRequest = {
      resourceSpans: [
        { resource: { attributes: [] }, scopeSpans: [] },
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] },
          scopeSpans: [
            { scope: { name: '', version: '', attributes: [] }, spans: [otlpSpan({ name: 's1' })] },
            {
              scope: { name: 'x', version: '', attributes: [] },
              spans: [otlpSpan({ name: 's2' }), otlpSpan({ name: 's3' })],
            },
          ],
        },
      ],
    };
    const rows = normalizeTraces(req, options);
    expect(rows.map((r) => [r.name, r.attrs['otel.library.name'] ?? null])).toEqual([
      ['s1', null],
      ['s2', 'x'],
      ['s3', 'x'],
    ]);
  });

  it('an empty request gives no rows', () => {
    expect(normalizeTraces({ resourceSpans: [] }, options)).toEqual([]);
  });

  it('does not change the shared resource attributes between spans', () => {
    const rows = normalizeTraces(
      otlpRequest([otlpSpan({ attrs: { 'display.name': 'A', service: 'x' } }), otlpSpan({})], {
        resource: { 'service.name': 'api' },
      }),
      options,
    );
    expect(rows[1].attrs).toEqual({ 'service.name': 'api' });
  });
});

describe('normalizeTraces: stable semantic-convention names fill the old names (promoted columns)', () => {
  const stable = {
    'db.system.name': 'postgresql',
    'db.query.text': 'SELECT * FROM users WHERE id = 1',
    'db.operation.name': 'SELECT',
    'db.collection.name': 'users',
  };

  it('copies resource and span attributes, keeping the stable names', () => {
    const row = one({ attrs: stable }, { resource: { 'service.name': 'api', 'deployment.environment.name': 'prod' } });
    expect(row.attrs).toMatchObject({
      ...stable,
      'deployment.environment.name': 'prod',
      'deployment.environment': 'prod',
      'db.system': 'postgresql',
      'db.statement': 'SELECT * FROM users WHERE id = 1',
      'db.operation': 'SELECT',
      'db.sql.table': 'users',
    });
    expect(row.system).toBe('db:postgresql');
  });

  it('an old name already present wins', () => {
    const row = one({ attrs: { 'db.system': 'mysql', 'db.system.name': 'postgresql' } });
    expect(row.attrs['db.system']).toBe('mysql');
  });

  it('group ids stay what they were before the copy (db.operation and db.sql.table are group keys)', () => {
    const row = one({ attrs: stable });
    // Hashed as sent, not with the copies: different from a span sending both names.
    const both = one({ attrs: { ...stable, 'db.operation': 'SELECT', 'db.sql.table': 'users' } });
    expect(row.groupId).not.toBe(both.groupId);
  });

  it('span events take the copies, and their own stable names win', () => {
    const rows = normalizeTraces(
      otlpRequest([
        otlpSpan({
          attrs: stable,
          events: [{ name: 'log', attrs: { 'log.message': 'slow', 'db.query.text': 'SELECT 2' } }],
        }),
      ]),
      options,
    );
    expect(rows[1].attrs['db.system']).toBe('postgresql');
    expect(rows[1].attrs['db.statement']).toBe('SELECT 2');
  });
});
