import { QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect, type ReactNode } from 'react';
import { useSnackbar } from '../components/feedback/SnackbarProvider';
import { queryClient, queryErrorHandlers } from './queryClient';

/** The app's query client (queryClient.ts), with the snackbar and the way to Login for its errors. */
export function AppQueryProvider({ children, onUnauthorized }: { children: ReactNode; onUnauthorized: () => void }) {
  const snackbar = useSnackbar();
  useLayoutEffect(() => {
    queryErrorHandlers.current = { notifyError: (m) => snackbar.notifyError(m), onUnauthorized };
  }, [snackbar, onUnauthorized]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
