import { Alert, Box, Button, LinearProgress } from '@mui/material';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useCurrentUser } from '../features/auth/authApi';
import { loginReturningTo } from './loginRedirect';

/** Every page except Login needs a session; without one the user goes to Login, which brings them back here. */
export function RequireAuth() {
  const { data, error, isPending, refetch } = useCurrentUser();
  const location = useLocation();
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
  return <Outlet />;
}
