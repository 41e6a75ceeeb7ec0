import { describe, it, expect } from 'vitest';
import type { AttrMap } from '../spanRow';
import { groupId, type GroupIdInput } from './groupId';

const base: GroupIdInput = {
  env: '',
  system: 'http:api',
  kind: 'server',
  name: 'GET /users/:id',
  attrs: { 'http.method': 'GET', 'http.route': '/users/:id' },
  keys: ['http.method', 'http.route'],
  suffix: '',
};

function id(over: Partial<GroupIdInput>): bigint {
  return groupId({ ...base, ...over });
}

describe('groupId (reference ingest §2.7 hashSpan)', () => {
  it('is a stable 64-bit value (pinned: changing the hash regroups stored data)', () => {
    const a = id({});
    expect(a).toBe(id({}));
    expect(a).toBeGreaterThan(0n);
    expect(a < 1n << 64n).toBe(true);
    expect(a).toBe(700947863922839717n);
  });

  it.each<[string, Partial<GroupIdInput>]>([
    ['env', { env: 'prod' }],
    ['system', { system: 'http:web' }],
    ['kind', { kind: 'client' }],
    ['name', { name: 'GET /orders' }],
    ['a hashed key value', { attrs: { 'http.method': 'POST', 'http.route': '/users/:id' } }],
    ['a hashed key missing', { attrs: { 'http.route': '/users/:id' } }],
    ['suffix', { suffix: 'SELECT FROM' }],
  ])('changes with %s', (_name, over) => {
    expect(id(over)).not.toBe(id({}));
  });

  it('ignores attributes that are not rule keys', () => {
    expect(id({ attrs: { ...base.attrs, 'http.target': '/users/1', 'enduser.id': 'u1' } })).toBe(id({}));
  });

  it('separates parts, so moving text between them changes the id', () => {
    expect(id({ system: 'ab', name: 'c' })).not.toBe(id({ system: 'a', name: 'bc' }));
  });

  it('hashes non-string values by their text', () => {
    const attrs: AttrMap = { 'http.method': ['GET', 'HEAD'], 'http.route': 5 };
    expect(id({ attrs })).toBe(id({ attrs: { ...attrs } }));
    expect(id({ attrs })).not.toBe(id({ attrs: { ...attrs, 'http.route': 6 } }));
  });
});
