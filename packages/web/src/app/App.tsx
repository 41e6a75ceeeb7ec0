import { CssBaseline, ThemeProvider } from '@mui/material';
import { RouterProvider } from 'react-router-dom';
import { ConfirmProvider } from '../components/feedback/ConfirmProvider';
import { SnackbarProvider } from '../components/feedback/SnackbarProvider';
import { paths } from '../lib/routes/paths';
import { AppQueryProvider } from './AppQueryProvider';
import { loginReturningTo } from './loginRedirect';
import { router } from './router';
import { theme } from './theme';

/** A 401 anywhere: the session is gone; after signing in again the user comes back to this page. */
const goToLogin = () => {
  if (window.location.pathname !== paths.login())
    void router.navigate(loginReturningTo(window.location), { replace: true });
};

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider>
        <ConfirmProvider>
          <AppQueryProvider onUnauthorized={goToLogin}>
            <RouterProvider router={router} />
          </AppQueryProvider>
        </ConfirmProvider>
      </SnackbarProvider>
    </ThemeProvider>
  );
}
