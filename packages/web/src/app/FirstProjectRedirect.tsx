import { Navigate } from 'react-router-dom';
import { useCurrentUser } from '../features/auth/authApi';
import { paths } from '../lib/routes/paths';

/**
 * Home and the project-less section paths (/overview, /spans, /metrics, /alerts) go to the first
 * project, or to ProjectCreate when there is none (spec §2.1). Rendered under RequireAuth.
 */
export function FirstProjectRedirect({ to }: { to: (projectId: number) => string }) {
  const { data } = useCurrentUser();
  const first = data?.projects[0];
  return <Navigate to={first ? to(first.id) : paths.projectCreate()} replace />;
}

export function HomeRedirect() {
  return <FirstProjectRedirect to={paths.overview} />;
}
