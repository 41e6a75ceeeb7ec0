import type { Dashboard } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { dashboardTab } from './dashboardTab';

const dash = (tableMetrics: number) =>
  ({
    tableMetrics: Array.from({ length: tableMetrics }, (_, i) => ({ name: `m${i}`, alias: `m${i}` })),
  }) as unknown as Dashboard;

describe('the default dashboard tab', () => {
  it('is Table, or Grid when there is no table but a grid', () => {
    expect(dashboardTab(null, dash(1), 3)).toBe('table');
    expect(dashboardTab(null, dash(0), 3)).toBe('grid');
    expect(dashboardTab(null, dash(0), 0)).toBe('table');
  });
  it('follows the address when it names a tab', () => {
    expect(dashboardTab('yaml', dash(1), 0)).toBe('yaml');
    expect(dashboardTab('bogus', dash(0), 2)).toBe('grid');
  });
});
