import type { QueryClient } from '@tanstack/react-query';
import { preloadCharts } from '../../components/charts/EChart';
import { prefetchDashboard } from './dashboards/dashboardsApi';
import { lastDashboard } from './dashboards/dashboardTab';
import { metricsListQuery } from './metricsApi';

/**
 * The calls a Metrics page opened from its address needs first, started by its route's loader
 * while the app's code is still starting and the session is checked: the metrics list (the layout
 * waits for it) and, at the dashboards, the dashboard with its panels (the one in the address, or at
 * /metrics/:projectId the last one opened), and the charts' code.
 */
export function prefetchMetricsPage(qc: QueryClient, projectId: number, dashId: string | undefined, url: URL): void {
  void qc.prefetchQuery(metricsListQuery(projectId));
  const id = dashboardAhead(projectId, dashId, url.pathname);
  if (id === undefined) return;
  prefetchDashboard(qc, projectId, id, url.searchParams);
  // The chart library's chunk comes while the panels' answers are computed, not after them.
  preloadCharts();
}

/** The dashboard a Metrics address is about to show: its own, or at /metrics/:projectId the last one opened. */
export function dashboardAhead(projectId: number, dashId: string | undefined, pathname: string): string | undefined {
  const atDashboards = pathname.split('/').filter(Boolean).length === 2;
  return dashId ?? (atDashboards ? (lastDashboard(projectId) ?? undefined) : undefined);
}
