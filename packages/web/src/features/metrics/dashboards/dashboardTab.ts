import type { Dashboard } from '@lantern/shared';

export type DashTab = 'table' | 'grid' | 'yaml';
const TABS: readonly DashTab[] = ['table', 'grid', 'yaml'];

/** The table is configured when it has metrics and a query (reference frontend §1.3.13). */
export function tableConfigured(dashboard: Pick<Dashboard, 'tableMetrics' | 'tableQuery'>): boolean {
  return dashboard.tableMetrics.length > 0 && dashboard.tableQuery.trim() !== '';
}

/**
 * The tab shown (spec Dashboard page, reference frontend §1.3.13). `param` is the address's tab:
 * Table when missing or invalid. A tab the user clicked on this dashboard (`clicked`) is shown as
 * is; one that came with the link or from the dashboard left behind switches from an unconfigured
 * Table to a Grid with panels, and from an empty Grid to a configured Table.
 */
export function dashboardTab(
  param: string | null,
  dashboard: Pick<Dashboard, 'tableMetrics' | 'tableQuery'>,
  gridColumns: number,
  clicked = false,
): DashTab {
  const tab = param && (TABS as readonly string[]).includes(param) ? (param as DashTab) : 'table';
  if (clicked) return tab;
  const hasTable = tableConfigured(dashboard);
  if (tab === 'table' && !hasTable && gridColumns > 0) return 'grid';
  if (tab === 'grid' && gridColumns === 0 && hasTable) return 'table';
  return tab;
}

const lastKey = (projectId: number) => `last-dashboard:${projectId}`;

/** The dashboard last opened in this project (local storage, spec `last-dashboard:{projectId}`). */
export function lastDashboard(projectId: number): string | null {
  try {
    return localStorage.getItem(lastKey(projectId));
  } catch {
    return null;
  }
}

export function rememberDashboard(projectId: number, dashId: string): void {
  try {
    localStorage.setItem(lastKey(projectId), dashId);
  } catch {
    /* storage unavailable: nothing to remember */
  }
}
