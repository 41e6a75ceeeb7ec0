import { createBrowserRouter, Navigate, useParams } from 'react-router-dom';
import { AlertingPage } from '../features/alerting/AlertingPage';
import { LoginPage } from '../features/auth/LoginPage';
import { ProjectCreatePage } from '../features/help/ProjectCreatePage';
import { MetricsHelpPage, MetricsPage } from '../features/metrics/MetricsPage';
import { ProjectSettingsPage } from '../features/projects/ProjectSettingsPage';
import { TraceFindPage } from '../features/tracing/TraceFindPage';
import { paths } from '../lib/routes/paths';
import { parseProjectId } from '../lib/routes/useProjectIdParam';
import { AppLayout, type RouteHandle } from './AppLayout';
import { FirstProjectRedirect, HomeRedirect } from './FirstProjectRedirect';
import { NotFoundPage } from './NotFoundPage';
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

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage />, handle: { fullBleed: true } satisfies RouteHandle },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <HomeRedirect /> },
          { path: '/help/projects', element: <ProjectCreatePage /> },
          { path: '/help/:projectId', lazy: () => import('../features/help/TracingHelpPage').then((m) => ({ Component: m.TracingHelpPage })) },
          { path: '/projects/:projectId', element: <ProjectSettingsPage /> },
          { path: '/overview', element: <FirstProjectRedirect to={paths.overview} /> },
          { path: '/overview/:projectId/*', lazy: () => import('../features/overview/OverviewPage').then((m) => ({ Component: m.OverviewPage })) },
          { path: '/spans', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          { path: '/events', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          { path: '/spans/:projectId/*', lazy: () => import('../features/tracing/explore/ExploreSpansPage').then((m) => ({ Component: m.ExploreSpansPage })) },
          { path: '/traces/:traceId', element: <TraceFindPage /> },
          { path: '/traces/:projectId/:traceId', lazy: () => import('../features/tracing/TracePage').then((m) => ({ Component: m.TracePage })) },
          { path: '/traces/:projectId/:traceId/:spanId', lazy: () => import('../features/tracing/SpanPage').then((m) => ({ Component: m.SpanPage })) },
          { path: '/metrics', element: <FirstProjectRedirect to={paths.metrics} /> },
          { path: '/metrics/:projectId/help', element: <MetricsHelpPage /> },
          { path: '/metrics/:projectId/*', element: <MetricsPage /> },
          { path: '/alerting/:projectId/*', element: <AlertingPage /> },
          { path: '/alerts', element: <FirstProjectRedirect to={paths.alerting} /> },
          { path: '/alerts/:projectId/:alertId', element: <ProjectRedirect to={paths.alerting} /> },
          { path: '/:projectId', element: <ProjectRedirect to={paths.overview} /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
