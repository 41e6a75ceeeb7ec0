import { EmailChannelResponse, EmailTestResponse, type EmailSettings } from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from '../../../lib/api/apiClient';

/** The signed-in user's e-mail notification settings for one project (spec §2.12, §7). */
const key = (projectId: number | undefined) => ['alerting', projectId, 'email-settings'] as const;
const path = (projectId: number | undefined) => `/api/v1/projects/${projectId}/notification-channels/email`;

export function useEmailSettings(projectId: number | undefined) {
  return useQuery({
    queryKey: key(projectId),
    queryFn: ({ signal }) => apiGet(EmailChannelResponse, path(projectId), undefined, signal),
    enabled: projectId !== undefined,
  });
}

/** Empty matcher rows are dropped before sending (spec §5); the server drops them too. */
export function useSaveEmailSettings(projectId: number | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: EmailSettings) =>
      apiRequest(EmailChannelResponse, path(projectId), {
        method: 'PUT',
        body: {
          ...s,
          errorMatchers: s.errorMatchers
            .map((m) => ({ attr: m.attr.trim(), value: m.value }))
            .filter((m) => m.attr !== '' && m.value !== ''),
        },
      }),
    onSuccess: (d) => qc.setQueryData(key(projectId), d),
  });
}

/** Sends the sample alert e-mail to the signed-in user now; the SMTP reply is shown by the page. */
export function useSendTestEmail(projectId: number | undefined) {
  return useMutation({
    mutationFn: () => apiRequest(EmailTestResponse, `${path(projectId)}/test`, { method: 'POST' }),
    meta: { silent: true },
  });
}
