import { alertingRoutes, type EmailSettings } from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryKey } from '../../../lib/api/api';

/** The signed-in user's e-mail notification settings for one project (spec §2.12, §7). */
const A = alertingRoutes;
const input = (projectId: number | undefined) => ({ params: { projectId: projectId ?? 0 } });

export function useEmailSettings(projectId: number | undefined) {
  return useQuery({
    queryKey: queryKey(A.emailChannel, input(projectId)),
    queryFn: ({ signal }) => api(A.emailChannel, input(projectId), { signal }),
    enabled: projectId !== undefined,
  });
}

/** Empty matcher rows are dropped before sending (spec §5); the server drops them too. */
export function useSaveEmailSettings(projectId: number | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: EmailSettings) =>
      api(A.updateEmailChannel, {
        ...input(projectId),
        body: {
          ...s,
          errorMatchers: s.errorMatchers
            .map((m) => ({ attr: m.attr.trim(), value: m.value }))
            .filter((m) => m.attr !== '' && m.value !== ''),
        },
      }),
    onSuccess: (d) => qc.setQueryData(queryKey(A.emailChannel, input(projectId)), d),
  });
}

/** Sends the sample alert e-mail to the signed-in user now; the SMTP reply is shown by the page. */
export function useSendTestEmail(projectId: number | undefined) {
  return useMutation({
    mutationFn: () => api(A.testEmailChannel, input(projectId)),
    meta: { silent: true },
  });
}
