import { Alert, Box, Skeleton, Stack, Tab, Tabs } from '@mui/material';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { paths } from '../../lib/routes/paths';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { MetricsHelpCard } from './help/MetricsHelpCard';
import { usePrefetchDashboard } from './dashboards/dashboardsApi';
import { useMetricsList } from './metricsApi';
import { dashboardAhead } from './metricsPrefetch';

/** `dashboards` for the list and a dashboard, `explore` for Metrics explore. */
function tabOf(pathname: string): 'dashboards' | 'explore' {
  return pathname.split('/')[3] === 'explore' ? 'explore' : 'dashboards';
}

/**
 * Spec tracing §2 Metrics layout: the help card while the project has no metrics, otherwise the
 * tabs Dashboards and Explore around the page.
 */
export function MetricsLayout() {
  const projectId = useProjectIdParam();
  const { pathname } = useLocation();
  const metrics = useMetricsList(projectId);
  // A dashboard's data starts loading beside the metrics list, not after it (at /metrics/:projectId,
  // the last one opened, where the page is about to go).
  const { dashId } = useParams();
  usePrefetchDashboard(projectId, projectId === undefined ? undefined : dashboardAhead(projectId, dashId, pathname));
  if (projectId === undefined) return <NotFoundPage />;
  if (metrics.error) return <Alert severity="error">{metrics.error.message}</Alert>;
  if (metrics.isPending) return <Skeleton variant="rectangular" height={300} />;
  if (metrics.data.metrics.length === 0) return <MetricsHelpCard projectId={projectId} />;
  return (
    <Stack spacing={2} data-testid="metrics-layout">
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={tabOf(pathname)}
          aria-label="Metrics"
          sx={{ '& .MuiTab-root': { textTransform: 'none', fontSize: 15 } }}
        >
          <Tab
            value="dashboards"
            label="Dashboards"
            component={RouterLink}
            to={paths.metrics(projectId)}
            data-testid="metrics-tab-dashboards"
          />
          <Tab
            value="explore"
            label="Explore"
            component={RouterLink}
            to={paths.metricsExplore(projectId)}
            data-testid="metrics-tab-explore"
          />
        </Tabs>
      </Box>
      <Outlet />
    </Stack>
  );
}
