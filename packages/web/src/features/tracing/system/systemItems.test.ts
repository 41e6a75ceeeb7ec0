import type { SystemStats } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { kindOf, systemItems, systemKinds } from './systemItems';

const s = (system: string, count: number, groupCount = 1, errorCount = 0): SystemStats => ({ projectId: 1, system, count, errorCount, rate: count, errorRate: 0, groupCount });

describe('systemItems', () => {
  it('adds all and type:all groups and indents members', () => {
    const items = systemItems([s('http:api', 10, 2, 1), s('db:postgresql', 5), s('db:redis', 3), s('log:error', 1)]);
    expect(items.map((i) => `${i.indent ? '  ' : ''}${i.system}`)).toEqual(['all', 'db:all', '  db:postgresql', '  db:redis', 'http:api', 'log:error']);
    expect(items[0]).toMatchObject({ count: 19, errorCount: 1, groupCount: 5 });
  });

  it('keeps active systems that are not in the data', () => {
    expect(systemItems([], ['rpc:grpc']).map((i) => i.system)).toEqual(['all', 'rpc:grpc']);
  });

  it('lists the kinds with their group counts', () => {
    expect(systemKinds([s('http:api', 1, 3), s('log:info', 1, 2), s('log:error', 1, 4)])).toEqual([
      { kind: 'spans', groupCount: 3 },
      { kind: 'logs', groupCount: 2 },
      { kind: 'events', groupCount: 4 },
    ]);
    expect(kindOf('log:error')).toBe('events');
    expect(kindOf('log:info')).toBe('logs');
    expect(kindOf('all')).toBe('spans');
  });
});
