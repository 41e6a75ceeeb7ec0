import { Alert, Box, Button, LinearProgress } from '@mui/material';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useRouteProjectId } from '../components/shell/useRouteProjectId';
import { useCurrentUser } from '../features/auth/authApi';
import { loginReturningTo } from './loginRedirect';
import { NotFoundPage } from './NotFoundPage';

/**
 * Every page except Login needs a session; without one the user goes to Login, which brings them
 * back here. A page of a project the user does not have (none with that id) is the not-found page
 * (spec §8), not the page's frame around its calls' 404s.
 */
export function RequireAuth() {
  const { data, error, isPending, refetch } = useCurrentUser();
  const location = useLocation();
  const projectId = useRouteProjectId();
  if (isPending) return <LinearProgress data-testid="auth-loading" />;
  if (error) {
    return (
      <Box sx={{ p: 4 }}>
        <Alert severity="error" action={<Button onClick={() => void refetch()}>Retry</Button>}>
          {error.message}
        </Alert>
      </Box>
    );
  }
  if (!data) return <Navigate to={loginReturningTo(location)} replace />;
  if (projectId !== undefined && !data.projects.some((p) => p.id === projectId)) return <NotFoundPage />;
  return <Outlet />;
}
