import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { currentUserKey } from '../features/auth/authApi';
import { keepSessionHint } from '../features/auth/sessionHint';
import { ApiError } from '../lib/api/apiClient';
import type { AppQueryMeta } from '../lib/api/queryMeta';
import { retryDelay, shouldRetry } from '../lib/api/retryPolicy';
import { capitalize } from '../lib/text/capitalize';

/** What the app does with a failed call; set by AppQueryProvider once the app has rendered. */
export const queryErrorHandlers: {
  current: { notifyError: (message: string) => void; onUnauthorized: () => void } | null;
} = { current: null };

/**
 * Server state lives only in TanStack Query, in this one client. It exists before the first render
 * so that route loaders can start a page's calls while the app's code is still starting.
 * Global rules (spec §7, §8): reads retry 2 times with exponential delay except on a 4xx, writes
 * never (one whose answer was lost may have been applied; docs/architecture.md); a 401 anywhere
 * means the session is gone, so the user is signed out and sent to Login; a 400 or 403 shows the
 * server's message in the snackbar unless the screen shows it.
 */
export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onError(error, query.meta) }),
  mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => onError(error, mutation.meta) }),
  defaultOptions: {
    queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
keepSessionHint(queryClient);

function onError(error: Error, meta: AppQueryMeta | undefined) {
  if (!(error instanceof ApiError)) return;
  if (error.status === 401) {
    queryClient.setQueryData(currentUserKey, null);
    queryErrorHandlers.current?.onUnauthorized();
    return;
  }
  if ((error.status === 400 || error.status === 403) && !meta?.silent)
    queryErrorHandlers.current?.notifyError(capitalize(error.message));
}
