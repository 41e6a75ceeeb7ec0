import type { SystemStats } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { kindOf, pickSystems, systemItems, systemKinds } from './systemItems';

const s = (system: string, count: number, groupCount = 1, errorCount = 0): SystemStats => ({
  projectId: 1,
  system,
  count,
  errorCount,
  rate: count,
  errorRate: 0,
  groupCount,
});

describe('systemItems', () => {
  it('adds all and type:all groups and indents members', () => {
    const items = systemItems([s('http:api', 10, 2, 1), s('db:postgresql', 5), s('db:redis', 3), s('log:error', 1)]);
    expect(items.map((i) => `${i.indent ? '  ' : ''}${i.system}`)).toEqual([
      'all',
      'db:all',
      '  db:postgresql',
      '  db:redis',
      'http:api',
      'log:error',
    ]);
    expect(items[0]).toMatchObject({ count: 19, errorCount: 1, groupCount: 5 });
  });

  const demo = [
    s('http:api', 10, 2, 1),
    s('db:postgresql', 5),
    s('db:redis', 3),
    s('funcs', 4),
    s('log:info', 6, 6),
    s('log:error', 2, 2),
    s('message:orders', 1),
  ];
  const lines = (items: ReturnType<typeof systemItems>) =>
    items.map((i) => `${i.indent ? '  ' : ''}${i.system} ${i.groupCount}`);

  it("narrowed to a kind: that kind's entry summed over its systems, then its systems grouped by type", () => {
    expect(lines(systemItems(demo, ['spans:all'], 'spans'))).toEqual([
      'all 14',
      'spans:all 5',
      'db:all 2',
      '  db:postgresql 1',
      '  db:redis 1',
      'funcs 1',
      'http:api 2',
    ]);
    expect(systemItems(demo, ['spans:all'], 'spans')[1]).toMatchObject({ count: 22, errorCount: 1, isGroup: true });
    // Logs are every log:* system, error logs too (log:all selects them), and log:all is listed once.
    expect(lines(systemItems(demo, ['log:all'], 'logs'))).toEqual([
      'all 14',
      'log:all 8',
      '  log:error 2',
      '  log:info 6',
    ]);
    // Events gather log:error and message:*; neither is indented under a type it does not share.
    expect(lines(systemItems(demo, ['events:all'], 'events'))).toEqual([
      'all 14',
      'events:all 3',
      'log:error 2',
      'message:orders 1',
    ]);
  });

  it('keeps a chosen system of another kind, with its counts', () => {
    expect(lines(systemItems(demo, ['http:api', 'log:info'], 'spans'))).toContain('log:info 6');
  });

  it('keeps active systems that are not in the data', () => {
    expect(systemItems([], ['rpc:grpc']).map((i) => i.system)).toEqual(['all', 'rpc:grpc']);
  });

  it('lists the kinds with their group counts', () => {
    expect(systemKinds([s('http:api', 1, 3), s('log:info', 1, 2), s('log:error', 1, 4)])).toEqual([
      { kind: 'spans', groupCount: 3 },
      { kind: 'logs', groupCount: 6 },
      { kind: 'events', groupCount: 4 },
    ]);
    expect(kindOf('log:error')).toBe('events');
    expect(kindOf('log:info')).toBe('logs');
    expect(kindOf('all')).toBe('spans');
  });

  it('a checkbox toggles within the selection; the row selects only its system or clears it', () => {
    expect(pickSystems(['http:api'], 'db:redis', 'toggle')).toEqual(['http:api', 'db:redis']);
    expect(pickSystems(['http:api', 'db:redis'], 'db:redis', 'toggle')).toEqual(['http:api']);
    expect(pickSystems(['http:api', 'db:redis'], 'db:all', 'toggle')).toEqual(['db:all']);
    expect(pickSystems(['db:all'], 'db:redis', 'toggle')).toEqual(['db:redis']);
    expect(pickSystems(['http:api', 'db:redis'], 'db:redis', 'only')).toEqual(['db:redis']);
    expect(pickSystems(['db:redis'], 'db:redis', 'only')).toEqual([]);
  });
});
