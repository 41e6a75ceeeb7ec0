import { createBrowserRouter, Navigate, useParams } from 'react-router-dom';
import { AlertingPage } from '../features/alerting/AlertingPage';
import { LoginPage } from '../features/auth/LoginPage';
import { ProjectCreatePage } from '../features/help/ProjectCreatePage';
import { TracingHelpPage } from '../features/help/TracingHelpPage';
import { MetricsHelpPage, MetricsPage } from '../features/metrics/MetricsPage';
import { OverviewPage } from '../features/overview/OverviewPage';
import { ProjectSettingsPage } from '../features/projects/ProjectSettingsPage';
import { ExploreSpansPage } from '../features/tracing/explore/ExploreSpansPage';
import { SpanPage } from '../features/tracing/SpanPage';
import { TraceFindPage } from '../features/tracing/TraceFindPage';
import { TracePage } from '../features/tracing/TracePage';
import { paths } from '../lib/routes/paths';
import { parseProjectId } from '../lib/routes/useProjectIdParam';
import { AppLayout, type RouteHandle } from './AppLayout';
import { FirstProjectRedirect, HomeRedirect } from './FirstProjectRedirect';
import { NotFoundPage } from './NotFoundPage';
import { RequireAuth } from './RequireAuth';
import { RouteErrorPage } from './RouteErrorPage';

/** Routes only pick a page (spec platform §2.1, tracing §2); a path param that is not a project id is a 404. */
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
          { path: '/help/:projectId', element: <TracingHelpPage /> },
          { path: '/projects/:projectId', element: <ProjectSettingsPage /> },
          { path: '/overview', element: <FirstProjectRedirect to={paths.overview} /> },
          { path: '/overview/:projectId/*', element: <OverviewPage /> },
          { path: '/spans', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          { path: '/events', element: <FirstProjectRedirect to={(id) => paths.spanGroups(id)} /> },
          { path: '/spans/:projectId/*', element: <ExploreSpansPage /> },
          { path: '/traces/:traceId', element: <TraceFindPage /> },
          { path: '/traces/:projectId/:traceId', element: <TracePage /> },
          { path: '/traces/:projectId/:traceId/:spanId', element: <SpanPage /> },
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
