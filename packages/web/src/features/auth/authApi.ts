import {
  CurrentUserResponse,
  LoginHintResponse,
  LoginResponse,
  SsoMethodsResponse,
  type LoginRequest,
} from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { apiGet, apiPost, isApiError } from '../../lib/api/apiClient';
import { paths } from '../../lib/routes/paths';

export const currentUserKey = ['users', 'current'] as const;

/** The signed-in user and their projects; null when signed out (a 401 is an answer here, not an error). */
export function useCurrentUser() {
  return useQuery({
    queryKey: currentUserKey,
    queryFn: async ({ signal }) => {
      try {
        return await apiGet(CurrentUserResponse, '/api/v1/users/current', undefined, signal);
      } catch (err) {
        if (isApiError(err, 401)) return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function useLoginHint() {
  return useQuery({
    queryKey: ['users', 'login-hint'],
    queryFn: ({ signal }) => apiGet(LoginHintResponse, '/api/v1/users/login-hint', undefined, signal),
    staleTime: Infinity,
  });
}

export function useSsoMethods() {
  return useQuery({
    queryKey: ['sso', 'methods'],
    queryFn: ({ signal }) => apiGet(SsoMethodsResponse, '/api/v1/sso/methods', undefined, signal),
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
  return useMutation({
    mutationFn: (body: LoginRequest) => apiPost(LoginResponse, '/api/v1/users/login', body),
    // The Login page shows the failure in its own alert; no global toast.
    meta: { silent: true },
    onSuccess: async () => {
      await queryClient.refetchQueries({ queryKey: currentUserKey });
      navigate(next, { replace: true });
    },
  });
}

/** Spec §2.3: sign out calls logout, reloads the current user and goes to Login. */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiPost(z.object({}), '/api/v1/users/logout'),
    onSuccess: async () => {
      // Another user may sign in next: nothing cached for this one may leak into their session.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'users' || q.queryKey[1] !== 'current' });
      await queryClient.refetchQueries({ queryKey: currentUserKey });
      navigate(paths.login(), { replace: true });
    },
  });
}
