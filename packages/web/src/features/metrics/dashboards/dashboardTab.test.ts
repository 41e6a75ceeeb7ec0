import { describe, expect, it } from 'vitest';
import { dashboardTab, tableConfigured } from './dashboardTab';

const dash = (tableMetrics: number, tableQuery = 'sum($m0) | group by host') => ({
  tableMetrics: Array.from({ length: tableMetrics }, (_, i) => ({ name: `m${i}`, alias: `m${i}` })),
  tableQuery,
});

describe('the dashboard tab', () => {
  it('is Table, or Grid when there is no table but a grid', () => {
    expect(dashboardTab(null, dash(1), 3)).toBe('table');
    expect(dashboardTab(null, dash(0), 3)).toBe('grid');
    expect(dashboardTab(null, dash(0), 0)).toBe('table');
  });

  it('treats a table with metrics but no query as not configured', () => {
    expect(tableConfigured(dash(1, ''))).toBe(false);
    expect(tableConfigured(dash(1, '  '))).toBe(false);
    expect(tableConfigured(dash(1))).toBe(true);
    expect(dashboardTab(null, dash(1, ''), 2)).toBe('grid');
  });

  it('keeps the tab of the address (a link, or the dashboard left behind) when this dashboard has it', () => {
    expect(dashboardTab('yaml', dash(1), 0)).toBe('yaml');
    expect(dashboardTab('grid', dash(1), 2)).toBe('grid');
    expect(dashboardTab('table', dash(1), 2)).toBe('table');
    expect(dashboardTab('bogus', dash(0), 2)).toBe('grid');
  });

  it('switches the other way too: an empty grid goes to a configured table, an unconfigured table to a grid', () => {
    expect(dashboardTab('grid', dash(1), 0)).toBe('table');
    expect(dashboardTab('grid', dash(0), 0)).toBe('grid');
    expect(dashboardTab('table', dash(0), 2)).toBe('grid');
  });

  it('shows a tab the user clicked on this dashboard as is', () => {
    expect(dashboardTab('grid', dash(1), 0, true)).toBe('grid');
    expect(dashboardTab('table', dash(0), 2, true)).toBe('table');
  });
});
