import { authRoutes, type LoginRequest } from '@lantern/shared';
import { hashKey, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useSnackbar, type Snackbar } from '../../components/feedback/SnackbarProvider';
import { api, queryKey } from '../../lib/api/api';
import { isApiError } from '../../lib/api/apiClient';
import { paths } from '../../lib/routes/paths';

export const currentUserKey = queryKey(authRoutes.currentUser);

/** The signed-in user and their projects; null when signed out (a 401 is an answer here, not an error). */
export const currentUserQuery = {
  queryKey: currentUserKey,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    try {
      return await api(authRoutes.currentUser, {}, { signal });
    } catch (err) {
      if (isApiError(err, 401)) return null;
      throw err;
    }
  },
  staleTime: 5 * 60_000,
};

let signedOutByUser = false;

/**
 * Drops every cached answer of a signed-in user: all but the current user's (the caller refetches
 * it) and the Login page's own, which are the same for everyone; and the notification still shown
 * to them ("Dashboard saved" must not greet whoever signs in next).
 */
function forgetAllButCurrentUser(queryClient: QueryClient, snackbar: Snackbar): void {
  snackbar.clear();
  const keep = new Set(
    [currentUserKey, queryKey(authRoutes.loginHint), queryKey(authRoutes.ssoMethods)].map((k) => hashKey(k)),
  );
  queryClient.removeQueries({ predicate: (q) => !keep.has(q.queryHash) });
}

/**
 * Whether the session ended by the user's Sign out (until the next sign-in): Login then needs no
 * `next` back to the page left, which is for a session that ended under an open page.
 */
export const isSignedOutByUser = () => signedOutByUser;

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

export function useLoginHint() {
  return useQuery({
    queryKey: queryKey(authRoutes.loginHint),
    queryFn: ({ signal }) => api(authRoutes.loginHint, {}, { signal }),
    staleTime: Infinity,
  });
}

export function useSsoMethods() {
  return useQuery({
    queryKey: queryKey(authRoutes.ssoMethods),
    queryFn: ({ signal }) => api(authRoutes.ssoMethods, {}, { signal }),
    staleTime: Infinity,
  });
}

/**
 * Spec §2.3: after a successful login the current user is reloaded, then the user goes Home, or
 * back to the page they first asked for (`next`, a path of this site).
 */
export function useLoginMutation(next = paths.home()) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (body: LoginRequest) => api(authRoutes.login, { body }),
    // The Login page shows the failure in its own alert; no global toast.
    meta: { silent: true },
    onSuccess: async () => {
      signedOutByUser = false;
      // A session that ended under an open page (a 401) left that user's answers cached; whoever
      // signs in now may be someone else, whose pages must not start from them (their own e-mail
      // settings form filled with the other user's choices).
      forgetAllButCurrentUser(queryClient, snackbar);
      await queryClient.refetchQueries({ queryKey: currentUserKey });
      void navigate(next, { replace: true });
    },
  });
}

/** Spec §2.3: sign out calls logout, reloads the current user and goes to Login. */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: () => api(authRoutes.logout, {}),
    onSuccess: async () => {
      // The page still shown may render signed out before the navigation below: RequireAuth then
      // sends it to Login too, and must not add a `next` back to it.
      signedOutByUser = true;
      // Another user may sign in next: nothing cached for this one may leak into their session.
      forgetAllButCurrentUser(queryClient, snackbar);
      await queryClient.refetchQueries({ queryKey: currentUserKey });
      void navigate(paths.login(), { replace: true });
    },
  });
}
