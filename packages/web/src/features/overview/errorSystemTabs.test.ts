import { describe, expect, it } from 'vitest';
import { errorSystemTabs } from './errorSystemTabs';

describe('errorSystemTabs', () => {
  it('lists the error log systems present, with their counts', () => {
    const systems = [
      { system: 'http:api', count: 10 },
      { system: 'log:error', count: 3 },
      { system: 'log:fatal', count: 1 },
      { system: 'log:info', count: 40 },
      { system: 'log:panic', count: 0 },
    ];
    expect(errorSystemTabs(systems)).toEqual([
      { system: 'log:error', label: 'log:error (3)' },
      { system: 'log:fatal', label: 'log:fatal (1)' },
    ]);
  });

  it('is empty without error logs', () => expect(errorSystemTabs([{ system: 'http:api', count: 1 }])).toEqual([]));
});
