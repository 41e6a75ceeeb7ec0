import { describe, expect, it } from 'vitest';
import { isRefreshDue, refreshOption } from './autoRefresh';

describe('auto-refresh', () => {
  it('reads the address value, anything else is off', () => {
    expect(refreshOption('30s')).toEqual({ value: '30s', ms: 30_000, text: '30 s' });
    expect(refreshOption('5m')?.ms).toBe(300_000);
    expect(refreshOption('7s')).toBeUndefined();
    expect(refreshOption('')).toBeUndefined();
    expect(refreshOption(null)).toBeUndefined();
  });

  it('refreshes once an interval went by, never while hidden', () => {
    expect(isRefreshDue(true, 0, 10_000, 10_000)).toBe(true);
    expect(isRefreshDue(true, 0, 9_000, 10_000)).toBe(false);
    expect(isRefreshDue(false, 0, 60_000, 10_000)).toBe(false);
  });
});
