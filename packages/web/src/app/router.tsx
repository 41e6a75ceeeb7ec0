import { LinearProgress } from '@mui/material';
import { createBrowserRouter, Navigate, useParams } from 'react-router-dom';
import { currentUserQuery } from '../features/auth/authApi';
import { LoginPage } from '../features/auth/LoginPage';
import { sessionHint } from '../features/auth/sessionHint';
import { ProjectCreatePage } from '../features/help/ProjectCreatePage';
import { ProjectSettingsPage } from '../features/projects/ProjectSettingsPage';
import { TraceFindPage } from '../features/tracing/TraceFindPage';
import { paths } from '../lib/routes/paths';
import { parseProjectId } from '../lib/routes/useProjectIdParam';
import { AppLayout, type RouteHandle } from './AppLayout';
import { FirstProjectRedirect, HomeRedirect } from './FirstProjectRedirect';
import { NotFoundPage } from './NotFoundPage';
import { queryClient } from './queryClient';
import { RequireAuth } from './RequireAuth';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * Routes only pick a page (spec platform §2.1, tracing §2); a path param that is not a project id is
 * a 404. The tracing screens (charts, the query builder) load on first visit, so the login page and
 * the shell stay small.
 */
function ProjectRedirect({ to }: { to: (projectId: number) => string }) {
  const projectId = parseProjectId(useParams().projectId);
  return projectId === undefined ? <NotFoundPage /> : <Navigate to={to(projectId)} replace />;
}

const dashboardPage = () =>
  import('../features/metrics/dashboards/DashboardPage').then((m) => ({ Component: m.DashboardPage }));
const monitorMetricPage = () =>
  import('../features/alerting/monitors/MonitorMetricPage').then((m) => ({ Component: m.MonitorMetricPage }));
const monitorErrorPage = () =>
  import('../features/alerting/monitors/MonitorErrorPage').then((m) => ({ Component: m.MonitorErrorPage }));

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's code loads, when the app is opened on a lazily loaded screen.
    hydrateFallbackElement: <LinearProgress data-testid="app-loading" />,
    children: [
      { path: '/login', element: <LoginPage />, handle: { fullBleed: true } satisfies RouteHandle },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <HomeRedirect /> },
          { path: '/help/projects', element: <ProjectCreatePage /> },
          {
            path: '/help/:projectId',
            lazy: () => import('../features/help/TracingHelpPage').then((m) => ({ Component: m.TracingHelpPage })),
          },
          { path: '/projects/:projectId', element: <ProjectSettingsPage /> },
          { path: '/overview', element: <FirstProjectRedirect to={paths.overview} /> },
          {
            path: '/overview/:projectId/*',
            lazy: () => import('../features/overview/OverviewPage').then((m) => ({ Component: m.OverviewPage })),
          },
          { path: '/spans', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          { path: '/events', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          {
            path: '/spans/:projectId/*',
            lazy: () =>
              import('../features/tracing/explore/ExploreSpansPage').then((m) => ({ Component: m.ExploreSpansPage })),
          },
          { path: '/traces/:traceId', element: <TraceFindPage /> },
          {
            path: '/traces/:projectId/:traceId',
            lazy: () => import('../features/tracing/TracePage').then((m) => ({ Component: m.TracePage })),
          },
          {
            path: '/traces/:projectId/:traceId/:spanId',
            lazy: () => import('../features/tracing/SpanPage').then((m) => ({ Component: m.SpanPage })),
          },
          { path: '/metrics', element: <FirstProjectRedirect to={paths.metrics} /> },
          {
            path: '/metrics/:projectId/help',
            lazy: () =>
              import('../features/metrics/help/MetricsHelpPage').then((m) => ({ Component: m.MetricsHelpPage })),
          },
          {
            path: '/metrics/:projectId',
            lazy: () => import('../features/metrics/MetricsLayout').then((m) => ({ Component: m.MetricsLayout })),
            // Opened from its address: the page's first calls start beside the app's start-up and the
            // session check, not after them. Only when the route is entered; the layout prefetches
            // each dashboard opened later.
            loader: ({ params, request }) => {
              const projectId = parseProjectId(params.projectId);
              if (projectId === undefined) return null;
              // The code loads meanwhile; the calls start with a session only: at once when this
              // browser had one, else once the session check (the call RequireAuth makes anyway) finds one.
              const page = import('../features/metrics/metricsPrefetch');
              const session = sessionHint() || queryClient.fetchQuery(currentUserQuery).then(Boolean);
              Promise.all([session, page])
                .then(([signedIn, { prefetchMetricsPage }]) => {
                  if (signedIn) prefetchMetricsPage(queryClient, projectId, params.dashId, new URL(request.url));
                })
                .catch(() => undefined); // the page shows what failed when it asks
              return null;
            },
            shouldRevalidate: () => false,
            children: [
              { index: true, lazy: dashboardPage },
              {
                path: 'explore',
                lazy: () =>
                  import('../features/metrics/explore/MetricsExplorePage').then((m) => ({
                    Component: m.MetricsExplorePage,
                  })),
              },
              {
                path: 'dashboards',
                lazy: () =>
                  import('../features/metrics/dashboards/DashboardListPage').then((m) => ({
                    Component: m.DashboardListPage,
                  })),
              },
              { path: ':dashId', lazy: dashboardPage },
            ],
          },
          {
            path: '/alerting/:projectId',
            lazy: () => import('../features/alerting/AlertingLayout').then((m) => ({ Component: m.AlertingLayout })),
            children: [
              { index: true, element: <ProjectRedirect to={paths.alerts} /> },
              {
                path: 'alerts',
                lazy: () =>
                  import('../features/alerting/alerts/AlertListPage').then((m) => ({ Component: m.AlertListPage })),
              },
              {
                path: 'alerts/:alertId',
                lazy: () =>
                  import('../features/alerting/alerts/AlertShowPage').then((m) => ({ Component: m.AlertShowPage })),
              },
              {
                path: 'monitors',
                lazy: () =>
                  import('../features/alerting/monitors/MonitorListPage').then((m) => ({
                    Component: m.MonitorListPage,
                  })),
              },
              { path: 'monitors/new-metric', lazy: monitorMetricPage },
              { path: 'monitors/:monitorId/metric', lazy: monitorMetricPage },
              { path: 'monitors/new-error', lazy: monitorErrorPage },
              { path: 'monitors/:monitorId/error', lazy: monitorErrorPage },
              {
                path: 'channels',
                lazy: () =>
                  import('../features/alerting/channels/ChannelListPage').then((m) => ({
                    Component: m.ChannelListPage,
                  })),
              },
              {
                path: 'channels/:channelType/:channelId',
                lazy: () =>
                  import('../features/alerting/channels/ChannelShowPage').then((m) => ({
                    Component: m.ChannelShowPage,
                  })),
              },
              {
                path: 'email',
                lazy: () =>
                  import('../features/alerting/email/EmailNotificationsPage').then((m) => ({
                    Component: m.EmailNotificationsPage,
                  })),
              },
            ],
          },
          { path: '/alerts', element: <FirstProjectRedirect to={paths.alerts} /> },
          { path: '/alerts/:projectId/:alertId', element: <ProjectRedirect to={paths.alerts} /> },
          { path: '/:projectId', element: <ProjectRedirect to={paths.overview} /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
