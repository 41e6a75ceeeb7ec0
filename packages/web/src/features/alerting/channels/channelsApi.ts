import { alertingRoutes, type ChannelType, type NotifChannel } from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PENDING_POLL_MS } from '../alerts/alertsApi';
import { allMonitors } from '../monitors/monitorsApi';
import { api, queryKey } from '../../../lib/api/api';

/**
 * Every notification channel call of the web app (spec platform §7), one hook per endpoint.
 * Alertmanager channels read and write through the webhook endpoints (spec §2.11).
 */
const A = alertingRoutes;
const listInput = (projectId: number | undefined) => ({ params: { projectId: projectId ?? 0 } });
const listKey = (projectId: number | undefined) => queryKey(A.channels, listInput(projectId));
/** One channel is read through the endpoints of its family. */
const oneContract = (type: ChannelType) => (endpointKind(type) === 'slack' ? A.slackChannel : A.webhookChannel);
const oneInput = (projectId: number | undefined, id: number | string) => ({
  params: { projectId: projectId ?? 0, id },
});

/** The endpoint family of a channel type: slack, or webhook (webhook and alertmanager). */
export const endpointKind = (type: ChannelType): 'slack' | 'webhook' => (type === 'slack' ? 'slack' : 'webhook');

/** The request body of a create / update; `payload` is the user's JSON text, parsed by the server. */
export type ChannelBody =
  | { name: string; params: { webhookUrl: string } }
  | { type: 'webhook' | 'alertmanager'; name: string; params: { url: string; payload: string } };
type SlackBody = Extract<ChannelBody, { params: { webhookUrl: string } }>;
type WebhookBody = Extract<ChannelBody, { type: 'webhook' | 'alertmanager' }>;

export function useChannels(projectId: number | undefined) {
  return useQuery({
    queryKey: listKey(projectId),
    queryFn: ({ signal }) => api(A.channels, listInput(projectId), { signal }),
    enabled: projectId !== undefined,
    select: (d) => d.channels,
    // Asked again while a channel has notifications pending, so its delivery line follows them.
    refetchInterval: (q) => (q.state.data?.channels.some((c) => c.delivery.pending > 0) ? PENDING_POLL_MS : false),
  });
}

export function useChannel(projectId: number | undefined, type: ChannelType | undefined, id: string | undefined) {
  return useQuery({
    queryKey: queryKey(oneContract(type ?? 'slack'), oneInput(projectId, id ?? '')),
    queryFn: ({ signal }) => api(oneContract(type!), oneInput(projectId, id!), { signal }),
    enabled: projectId !== undefined && type !== undefined && id !== undefined,
    select: (d) => d.channel,
    // The edit page is the error screen for an unknown channel.
    meta: { silent: true },
    refetchInterval: (q) => ((q.state.data?.channel.delivery.pending ?? 0) > 0 ? PENDING_POLL_MS : false),
  });
}

/** Keeps the list and the one-channel cache in step with a channel the server just returned. */
function useStoreChannel(projectId: number | undefined) {
  const qc = useQueryClient();
  return (channel: NotifChannel) => {
    qc.setQueryData(queryKey(oneContract(channel.type), oneInput(projectId, channel.id)), { channel });
    void qc.invalidateQueries({ queryKey: listKey(projectId), exact: true });
  };
}

/** Validation failures are shown at their fields by the form, so they raise no toast. */
export function useSaveChannel(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: ({ type, id, body }: { type: ChannelType; id?: number; body: ChannelBody }) =>
      // ChannelBody is the union of the two families' bodies; `type` picks the family.
      endpointKind(type) === 'slack'
        ? id === undefined
          ? api(A.createSlackChannel, { ...listInput(projectId), body: body as SlackBody })
          : api(A.updateSlackChannel, { ...oneInput(projectId, id), body: body as SlackBody })
        : id === undefined
          ? api(A.createWebhookChannel, { ...listInput(projectId), body: body as WebhookBody })
          : api(A.updateWebhookChannel, { ...oneInput(projectId, id), body: body as WebhookBody }),
    onSuccess: (d) => store(d.channel),
    meta: { silent: true },
  });
}

export function useSetChannelState(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: ({ id, paused }: { id: number; paused: boolean }) =>
      api(paused ? A.pauseChannel : A.unpauseChannel, oneInput(projectId, id)),
    onSuccess: (d) => store(d.channel),
  });
}

export function useDeleteChannel(projectId: number | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(A.deleteChannel, oneInput(projectId, id)),
    onSuccess: (d) => {
      qc.removeQueries({ queryKey: queryKey(oneContract(d.channel.type), oneInput(projectId, d.channel.id)) });
      // The monitors that notified through it no longer list it.
      void qc.invalidateQueries({ queryKey: allMonitors(projectId ?? 0) });
      return qc.invalidateQueries({ queryKey: listKey(projectId), exact: true });
    },
  });
}

/** Sends a sample message now; the answer (or the failure) is shown next to the button. */
export function useTestChannel(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: (id: number) => api(A.testChannel, oneInput(projectId, id)),
    onSuccess: (d) => store(d.channel),
    meta: { silent: true },
  });
}
