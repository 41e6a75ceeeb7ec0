import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useSnackbar } from '../components/feedback/SnackbarProvider';
import { currentUserKey } from '../features/auth/authApi';
import { ApiError } from '../lib/api/apiClient';
import type { AppQueryMeta } from '../lib/api/queryMeta';
import { retryDelay, shouldRetry } from '../lib/api/retryPolicy';
import { capitalize } from '../lib/text/capitalize';

/**
 * Server state lives only in TanStack Query. Global rules (spec §7, §8): 2 retries with exponential
 * delay except for 4xx; a 401 anywhere means the session is gone, so the user is signed out and sent
 * to Login; a 400 or 403 shows the server's message in the snackbar unless the screen shows it.
 */
export function AppQueryProvider({ children, onUnauthorized }: { children: ReactNode; onUnauthorized: () => void }) {
  const snackbar = useSnackbar();
  // The client is created once; the handlers read the latest callbacks through refs.
  const handlers = useRef({ snackbar, onUnauthorized });
  useLayoutEffect(() => {
    handlers.current = { snackbar, onUnauthorized };
  }, [snackbar, onUnauthorized]);

  // The cache callbacks below run after a query settles, never during render; the rule cannot tell the
  // closures made in this initializer from code that runs in it.
  // eslint-disable-next-line react-hooks/refs
  const [client] = useState(() => {
    const onError = (error: Error, meta: AppQueryMeta | undefined) => {
      if (!(error instanceof ApiError)) return;
      if (error.status === 401) {
        client.setQueryData(currentUserKey, null);
        handlers.current.onUnauthorized();
        return;
      }
      if ((error.status === 400 || error.status === 403) && !meta?.silent)
        handlers.current.snackbar.notifyError(capitalize(error.message));
    };
    const client: QueryClient = new QueryClient({
      queryCache: new QueryCache({ onError: (error, query) => onError(error, query.meta) }),
      mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => onError(error, mutation.meta) }),
      defaultOptions: {
        queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false },
        mutations: { retry: false },
      },
    });
    return client;
  });

  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
