import { SlackChannelInput, WebhookChannelInput, type ChannelType, type NotifChannel } from '@lantern/shared';
import { ApiError } from '../../../lib/api/apiClient';
import type { ChannelBody } from './channelsApi';

/**
 * The channel form's values, checks and request body. An empty required field says 'Field is
 * required', the client message of every form (spec §8); the other checks are the contract's own
 * schemas (spec §5: Slack webhook URL; URL; the payload must parse as JSON, its parse error is the
 * message), so the form and the server say the same thing at the same field.
 */
export interface ChannelFormValues {
  name: string;
  webhookUrl: string;
  url: string;
  payload: string;
}

export type ChannelField = keyof ChannelFormValues;
export type ChannelFieldErrors = Partial<Record<ChannelField, string>>;

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  slack: 'Slack',
  webhook: 'WebHook',
  alertmanager: 'AlertManager',
};

export const emptyChannelForm: ChannelFormValues = { name: '', webhookUrl: '', url: '', payload: '' };

export function channelFormValues(channel: NotifChannel): ChannelFormValues {
  const p = channel.params;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    name: channel.name,
    webhookUrl: text(p.webhookUrl),
    url: text(p.url),
    payload: p.payload === null || p.payload === undefined ? '' : JSON.stringify(p.payload, null, 2),
  };
}

/**
 * Whether the form's fields differ from the saved channel: a payload counts as the same JSON
 * however it is spaced (the server keeps it parsed).
 */
export function isChannelEdited(channel: NotifChannel, v: ChannelFormValues): boolean {
  const saved = channelFormValues(channel);
  const sameJson = (a: string, b: string) => {
    if (a.trim() === b.trim()) return true;
    try {
      return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
    } catch {
      return false;
    }
  };
  return (
    v.name !== saved.name ||
    v.webhookUrl !== saved.webhookUrl ||
    v.url !== saved.url ||
    !sameJson(v.payload, saved.payload)
  );
}

export function channelBody(type: ChannelType, v: ChannelFormValues): ChannelBody {
  if (type === 'slack') return { name: v.name, params: { webhookUrl: v.webhookUrl } };
  return { type, name: v.name, params: { url: v.url, payload: type === 'webhook' ? v.payload : '' } };
}

const FIELD_BY_PATH: Record<string, ChannelField> = {
  name: 'name',
  'params.webhookUrl': 'webhookUrl',
  'params.url': 'url',
  'params.payload': 'payload',
};

const FIELD_REQUIRED = 'Field is required';

/** The fields a channel of this type cannot be saved without. */
function requiredFields(type: ChannelType): ChannelField[] {
  return ['name', type === 'slack' ? 'webhookUrl' : 'url'];
}

/** The first problem per field, or {} when the form may be sent. */
export function validateChannel(type: ChannelType, v: ChannelFormValues): ChannelFieldErrors {
  const errors: ChannelFieldErrors = {};
  // The schemas trim too, and answer "... can't be empty": that wording stays the API's.
  for (const field of requiredFields(type)) if (v[field].trim() === '') errors[field] = FIELD_REQUIRED;
  const body = channelBody(type, v);
  const r = type === 'slack' ? SlackChannelInput.safeParse(body) : WebhookChannelInput.safeParse(body);
  if (r.success) return errors;
  for (const issue of r.error.issues) {
    const field = FIELD_BY_PATH[issue.path.join('.')];
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * Places a rejected save at its fields: the server answers "params.url: ..." for input errors and
 * `url_refused` when the URL points into a network the config does not allow (the SSRF guard).
 * What belongs to no field comes back as `form`.
 */
export function serverErrors(type: ChannelType, err: unknown): { fields: ChannelFieldErrors; form: string } {
  const urlField: ChannelField = type === 'slack' ? 'webhookUrl' : 'url';
  if (!(err instanceof ApiError)) return { fields: {}, form: err instanceof Error ? err.message : String(err) };
  if (err.code === 'url_refused') return { fields: { [urlField]: err.message }, form: '' };
  if (err.code !== 'invalid_input') return { fields: {}, form: err.message };
  const fields: ChannelFieldErrors = {};
  const rest: string[] = [];
  for (const part of err.message.split('; ')) {
    const m = /^([\w.]+): (.*)$/s.exec(part);
    const field = m ? FIELD_BY_PATH[m[1]] : undefined;
    if (field && m) fields[field] ??= m[2];
    else rest.push(part);
  }
  return { fields, form: rest.join('; ') };
}
