import type { Dashboard } from '@lantern/shared';

export type DashTab = 'table' | 'grid' | 'yaml';
const TABS: readonly DashTab[] = ['table', 'grid', 'yaml'];

/**
 * The tab shown (spec Dashboard page): the address's `tab` when valid; else Table, switching to
 * Grid when the table is not configured but a grid exists.
 */
export function dashboardTab(param: string | null, dashboard: Dashboard, gridColumns: number): DashTab {
  if (param && (TABS as readonly string[]).includes(param)) return param as DashTab;
  return dashboard.tableMetrics.length === 0 && gridColumns > 0 ? 'grid' : 'table';
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
