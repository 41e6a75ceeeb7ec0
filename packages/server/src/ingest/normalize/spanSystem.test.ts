import { describe, it, expect } from 'vitest';
import type { SpanKind } from '@lantern/shared';
import type { AttrMap } from '../spanRow';
import { classifySpan } from './spanSystem';

const child = { parentId: 7n, kind: 'internal' as SpanKind };

describe('classifySpan (reference ingest §2.7)', () => {
  it.each<[string, AttrMap, string, string]>([
    ['rpc.system → rpc:<service>', { 'service.name': 'cart', 'rpc.system': 'grpc' }, 'rpc', 'rpc:cart'],
    ['rpc without service → rpc:unknown', { 'rpc.system': 'grpc' }, 'rpc', 'rpc:unknown'],
    ['rpc wins over http', { 'rpc.system': 'grpc', 'http.route': '/x', 'service.name': 's' }, 'rpc', 'rpc:s'],
    [
      'messaging.system → messaging:<system>',
      { 'service.name': 's', 'messaging.system': 'kafka' },
      'messaging',
      'messaging:kafka',
    ],
    [
      'messaging wins over db',
      { 'messaging.system': 'rabbitmq', 'db.system': 'redis' },
      'messaging',
      'messaging:rabbitmq',
    ],
    ['db.system → db:<system>', { 'db.system': 'postgresql', 'service.name': 's' }, 'db', 'db:postgresql'],
    ['db.statement alone → db:unknown_db', { 'db.statement': 'SELECT 1' }, 'db', 'db:unknown_db'],
    ['db.statement of any type counts', { 'db.statement': 5 }, 'db', 'db:unknown_db'],
    ['stable semconv db.system.name', { 'db.system.name': 'mysql' }, 'db', 'db:mysql'],
    ['stable semconv db.query.text', { 'db.query.text': 'SELECT 1' }, 'db', 'db:unknown_db'],
    ['empty rpc.system does not count', { 'rpc.system': '', 'db.system': 'redis' }, 'db', 'db:redis'],
    ['http.route → http:<service>', { 'http.route': '/users/:id', 'service.name': 'api' }, 'http', 'http:api'],
    ['http.target → http:<service>', { 'http.target': '/users/1', 'service.name': 'api' }, 'http', 'http:api'],
    ['stable semconv url.path → http', { 'url.path': '/users/1', 'service.name': 'api' }, 'http', 'http:api'],
    ['client span with only http.url → funcs', { 'http.url': 'http://x/y', 'service.name': 'api' }, 'funcs', 'funcs'],
    ['nothing special → funcs', { 'service.name': 'api' }, 'funcs', 'funcs'],
  ])('%s', (_name, attrs, type, system) => {
    const got = classifySpan(attrs, child, false);
    expect([got.type, got.system]).toEqual([type, system]);
  });

  it.each<[string, AttrMap, bigint, SpanKind, string]>([
    ['root span', { 'service.name': 'api' }, 0n, 'internal', 'funcs:api'],
    ['non-internal kind', { 'service.name': 'api' }, 7n, 'server', 'funcs:api'],
    ['code.function present', { 'service.name': 'api', 'code.function': 'f' }, 7n, 'internal', 'funcs:api'],
    ['code.function.name present', { 'code.function.name': 'f' }, 7n, 'internal', 'funcs:unknown'],
    ['inner internal span stays shared', { 'service.name': 'api' }, 7n, 'internal', 'funcs'],
  ])('groupFuncsByService: %s → %s', (_name, attrs, parentId, kind, system) => {
    expect(classifySpan(attrs, { parentId, kind }, true).system).toBe(system);
  });

  it('db spans take the statement as display name and its keywords as hash suffix', () => {
    const got = classifySpan(
      { 'db.system': 'postgresql', 'db.statement': 'select * from t where a = 1' },
      child,
      false,
    );
    expect(got.displayName).toBe('select * from t where a = 1');
    expect(got.hashSuffix).toBe('SELECT FROM WHERE');
    expect(got.hashKeys).toContain('db.sql.table');
  });

  it('names a SQL group by the statement template, and hashes the template keywords', () => {
    const got = classifySpan(
      { 'db.system': 'postgresql', 'db.statement': "SELECT * FROM t WHERE a = 1 AND b = 'x'" },
      child,
      false,
    );
    expect([got.displayName, got.groupName, got.hashSuffix]).toEqual([
      "SELECT * FROM t WHERE a = 1 AND b = 'x'",
      'SELECT * FROM t WHERE a = ? AND b = ?',
      'SELECT FROM WHERE',
    ]);
  });

  it('groups key-value commands by command whatever the key, named by the templated statement', () => {
    const redis = (statement: string) =>
      classifySpan({ 'db.system': 'redis', 'db.statement': statement }, child, false);
    const got = redis('GET cart:9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d:items:1003');
    expect([got.displayName, got.groupName, got.hashSuffix]).toEqual([
      'GET cart:9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d:items:1003',
      'GET cart:<uuid>:items:<num>',
      'GET',
    ]);
    // A key that reads like SQL no longer splits the command's group.
    expect(redis('get select:from:where').hashSuffix).toBe('GET');
    expect(classifySpan({ 'db.system': 'memcached', 'db.statement': 'set k' }, child, false).hashSuffix).toBe('SET');
  });

  it('names a document-store group by its JSON query with the keys kept and the values replaced', () => {
    const got = classifySpan(
      { 'db.system': 'mongodb', 'db.statement': '{"find":"orders","filter":{"userId":42,"status":"paid"}}' },
      child,
      false,
    );
    expect([got.groupName, got.hashSuffix]).toEqual(['{"find":<str>,"filter":{"userId":<num>,"status":<str>}}', '']);
  });

  it('a non-string statement neither names nor suffixes', () => {
    const got = classifySpan({ 'db.statement': 42 }, child, false);
    expect([got.displayName, got.hashSuffix]).toEqual(['', '']);
  });

  it('other rules set no display name', () => {
    expect(classifySpan({ 'http.route': '/x' }, child, false).displayName).toBe('');
  });
});
