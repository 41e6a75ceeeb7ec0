import { describe, it, expect } from 'vitest';
import { isKeyValueSystem, kvCommand, templateKv } from './kvStatement';

describe('key-value statements', () => {
  it.each([
    ['GET cart:9b2f3c1e-8d4a-4f6b-a2c3-5e6f7a8b9c0d:items:1003', 'GET', 'GET cart:<uuid>:items:<num>'],
    ['get session:4bf92f3577b34da6 ', 'GET', 'get session:<hex>'],
    [
      'SET user:42:profile {"name":"bob","age":31} EX 3600',
      'SET',
      'SET user:<num>:profile {"name":<str>,"age":<num>} EX <num>',
    ],
    ['HGETALL user:1234', 'HGETALL', 'HGETALL user:<num>'],
    ['set foo [1 other arguments]', 'SET', 'set foo [<num> other arguments]'],
    ['PING', 'PING', 'PING'],
  ])('%j: command %j, template %j', (statement, command, template) => {
    expect(kvCommand(statement)).toBe(command);
    expect(templateKv(statement)).toBe(template);
  });

  it('knows Redis, Valkey and Memcached, not SQL databases', () => {
    expect(['redis', 'Redis', 'valkey', 'memcached', 'memcache'].every(isKeyValueSystem)).toBe(true);
    expect(['postgresql', 'mysql', 'mongodb', ''].some(isKeyValueSystem)).toBe(false);
  });
});
