import type { ChannelParams } from '../channels.store';
import {
  alertmanagerMessage,
  slackMessage,
  webhookMessage,
  type MessageAlert,
  type MessageContext,
  type MessageEvent,
} from './messages';

/** Where a channel's message goes and what it says; shared by the delivery worker and the test button. */
export function channelRequest(
  channel: { type: string; params: string },
  alert: MessageAlert,
  event: MessageEvent,
  ctx: MessageContext,
): { url: string; body: unknown } {
  const params = JSON.parse(channel.params) as ChannelParams;
  if (channel.type === 'slack') return { url: params.webhookUrl ?? '', body: slackMessage(alert, event, ctx) };
  if (channel.type === 'alertmanager') return { url: params.url ?? '', body: alertmanagerMessage(alert, event, ctx) };
  return { url: params.url ?? '', body: webhookMessage(alert, event, ctx, params.payload) };
}
