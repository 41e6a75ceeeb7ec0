import { CssBaseline, ThemeProvider } from '@mui/material';
import { RouterProvider } from 'react-router-dom';
import { ConfirmProvider } from '../components/feedback/ConfirmProvider';
import { SnackbarProvider } from '../components/feedback/SnackbarProvider';
import { paths } from '../lib/routes/paths';
import { AppQueryProvider } from './AppQueryProvider';
import { router } from './router';
import { theme } from './theme';

const goToLogin = () => {
  if (window.location.pathname !== paths.login()) void router.navigate(paths.login(), { replace: true });
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
