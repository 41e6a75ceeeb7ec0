import {
  ChannelListResponse,
  ChannelResponse,
  ChannelTestResponse,
  type ChannelType,
  type NotifChannel,
} from '@lantern/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from '../../../lib/api/apiClient';

/**
 * Every notification channel call of the web app (spec platform §7), one hook per endpoint.
 * Alertmanager channels read and write through the webhook endpoints (spec §2.11).
 */
export const channelKeys = {
  all: (projectId: number | undefined) => ['alerting', projectId, 'channels'] as const,
  one: (projectId: number | undefined, id: number | string) => ['alerting', projectId, 'channels', String(id)] as const,
};

const base = (projectId: number | undefined) => `/api/v1/projects/${projectId}/notification-channels`;

/** The endpoint family of a channel type: slack, or webhook (webhook and alertmanager). */
export const endpointKind = (type: ChannelType): 'slack' | 'webhook' => (type === 'slack' ? 'slack' : 'webhook');

/** The request body of a create / update; `payload` is the user's JSON text, parsed by the server. */
export type ChannelBody =
  | { name: string; params: { webhookUrl: string } }
  | { type: 'webhook' | 'alertmanager'; name: string; params: { url: string; payload: string } };

export function useChannels(projectId: number | undefined) {
  return useQuery({
    queryKey: channelKeys.all(projectId),
    queryFn: ({ signal }) => apiGet(ChannelListResponse, base(projectId), undefined, signal),
    enabled: projectId !== undefined,
    select: (d) => d.channels,
  });
}

export function useChannel(projectId: number | undefined, type: ChannelType | undefined, id: string | undefined) {
  return useQuery({
    queryKey: channelKeys.one(projectId, id ?? ''),
    queryFn: ({ signal }) =>
      apiGet(ChannelResponse, `${base(projectId)}/${endpointKind(type!)}/${id}`, undefined, signal),
    enabled: projectId !== undefined && type !== undefined && id !== undefined,
    select: (d) => d.channel,
    // The edit page is the error screen for an unknown channel.
    meta: { silent: true },
  });
}

/** Keeps the list and the one-channel cache in step with a channel the server just returned. */
function useStoreChannel(projectId: number | undefined) {
  const qc = useQueryClient();
  return (channel: NotifChannel) => {
    qc.setQueryData(channelKeys.one(projectId, channel.id), { channel });
    void qc.invalidateQueries({ queryKey: channelKeys.all(projectId), exact: true });
  };
}

/** Validation failures are shown at their fields by the form, so they raise no toast. */
export function useSaveChannel(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: ({ type, id, body }: { type: ChannelType; id?: number; body: ChannelBody }) =>
      id === undefined
        ? apiRequest(ChannelResponse, `${base(projectId)}/${endpointKind(type)}`, { method: 'POST', body })
        : apiRequest(ChannelResponse, `${base(projectId)}/${endpointKind(type)}/${id}`, { method: 'PUT', body }),
    onSuccess: (d) => store(d.channel),
    meta: { silent: true },
  });
}

export function useSetChannelState(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: ({ id, paused }: { id: number; paused: boolean }) =>
      apiRequest(ChannelResponse, `${base(projectId)}/${id}/${paused ? 'paused' : 'unpaused'}`, { method: 'PUT' }),
    onSuccess: (d) => store(d.channel),
  });
}

export function useDeleteChannel(projectId: number | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(ChannelResponse, `${base(projectId)}/${id}`, { method: 'DELETE' }),
    onSuccess: (d) => {
      qc.removeQueries({ queryKey: channelKeys.one(projectId, d.channel.id) });
      return qc.invalidateQueries({ queryKey: channelKeys.all(projectId), exact: true });
    },
  });
}

/** Sends a sample message now; the answer (or the failure) is shown next to the button. */
export function useTestChannel(projectId: number | undefined) {
  const store = useStoreChannel(projectId);
  return useMutation({
    mutationFn: (id: number) => apiRequest(ChannelTestResponse, `${base(projectId)}/${id}/test`, { method: 'POST' }),
    onSuccess: (d) => store(d.channel),
    meta: { silent: true },
  });
}
