import { describe, expect, it } from 'vitest';
import { errorSystemTabs } from './errorSystemTabs';

const HOUR = 3600_000;

describe('errorSystemTabs', () => {
  it('lists the error log systems present, with their counts', () => {
    const systems = [
      { system: 'http:api', count: 10 },
      { system: 'log:error', count: 3 },
      { system: 'log:fatal', count: 1 },
      { system: 'log:info', count: 40 },
      { system: 'log:panic', count: 0 },
    ];
    expect(errorSystemTabs(systems, HOUR)).toEqual([
      { system: 'log:error', label: 'log:error (3)' },
      { system: 'log:fatal', label: 'log:fatal (1)' },
    ]);
  });

  it('shows them for ranges up to 3 days only', () => {
    const systems = [{ system: 'log:error', count: 3 }];
    expect(errorSystemTabs(systems, 72 * HOUR)).toHaveLength(1);
    expect(errorSystemTabs(systems, 72 * HOUR + 1)).toEqual([]);
    expect(errorSystemTabs(systems, 7 * 24 * HOUR)).toEqual([]);
  });

  it('is empty without error logs', () =>
    expect(errorSystemTabs([{ system: 'http:api', count: 1 }], HOUR)).toEqual([]));
});
