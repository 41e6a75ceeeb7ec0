import type { ChannelType, NotifChannel } from '@lantern/shared';
import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import {
  channelBody,
  channelFormValues,
  emptyChannelForm,
  isChannelEdited,
  serverErrors,
  validateChannel,
  type ChannelField,
  type ChannelFieldErrors,
  type ChannelFormValues,
} from './channelForm';
import { useSaveChannel } from './channelsApi';

const SLACK_WEBHOOKS_DOC = 'https://api.slack.com/messaging/webhooks';
const ALERTMANAGER_API_DOC = 'https://prometheus.io/docs/alerting/latest/clients/';

/** What each channel type does, above its fields (reference frontend §1.3.14). */
function Explanation({ type }: { type: ChannelType }) {
  if (type === 'slack')
    return (
      <>
        Lantern posts alert notifications to a Slack channel through an{' '}
        <Link href={SLACK_WEBHOOKS_DOC} target="_blank" rel="noopener">
          incoming webhook
        </Link>
        . Create one for your Slack app and paste its URL below.
      </>
    );
  if (type === 'alertmanager')
    return (
      <>
        Lantern sends alerts to Prometheus Alertmanager with its{' '}
        <Link href={ALERTMANAGER_API_DOC} target="_blank" rel="noopener">
          JSON v2 API
        </Link>
        , one alert per request, and marks it resolved when the alert is closed.
      </>
    );
  return (
    <>
      Lantern sends a POST request with a JSON message to the URL for every alert event: created, recurring and state
      changes.
    </>
  );
}

export interface ChannelFormProps {
  projectId: number;
  type: ChannelType;
  /** The channel to edit; a new one is created without it. */
  channel?: NotifChannel;
  onSaved: (channel: NotifChannel) => void;
  onCancel?: () => void;
  /** Shown under the buttons (the webhook help). */
  footer?: ReactNode;
  /** Told whether the fields differ from the saved channel (the test notification sends the saved one). */
  onDirtyChange?: (dirty: boolean) => void;
}

/** The create / edit form of one channel type; checks run before anything is sent. */
export function ChannelForm({ projectId, type, channel, onSaved, onCancel, footer, onDirtyChange }: ChannelFormProps) {
  const [values, setValues] = useState<ChannelFormValues>(() =>
    channel ? channelFormValues(channel) : emptyChannelForm,
  );
  const dirty = channel !== undefined && isChannelEdited(channel, values);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const [errors, setErrors] = useState<ChannelFieldErrors>({});
  const [formError, setFormError] = useState('');
  const save = useSaveChannel(projectId);

  const field = (name: ChannelField) => ({
    value: values[name],
    error: Boolean(errors[name]),
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
    },
    slotProps: {
      htmlInput: { 'data-testid': `channel-${name}` },
      formHelperText: { 'data-testid': `channel-${name}-helper` } as object,
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError('');
    const found = validateChannel(type, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate(
      { type, id: channel?.id, body: channelBody(type, values) },
      {
        onSuccess: (d) => {
          // The saved channel as the server keeps it (its payload re-indented): no longer edited.
          if (channel) setValues(channelFormValues(d.channel));
          onSaved(d.channel);
        },
        onError: (err) => {
          const { fields, form } = serverErrors(type, err);
          setErrors(fields);
          setFormError(form);
        },
      },
    );
  };

  const help = (name: ChannelField, hint: string) => errors[name] ?? hint;

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="channel-form">
      <Stack spacing={2.5}>
        <Typography variant="body2" color="text.secondary">
          <Explanation type={type} />
        </Typography>
        <TextField
          label="Channel name"
          required
          autoFocus={!channel}
          {...field('name')}
          helperText={help('name', 'A name to pick the channel by in monitors, e.g. "#ops alerts"')}
        />
        {type === 'slack' ? (
          <TextField
            label="Slack webhook URL"
            required
            placeholder="https://hooks.slack.com/services/..."
            {...field('webhookUrl')}
            helperText={help('webhookUrl', 'The incoming webhook of the Slack channel to post to')}
          />
        ) : (
          <TextField
            label={type === 'alertmanager' ? 'AlertManager URL' : 'Webhook URL'}
            required
            placeholder={
              type === 'alertmanager'
                ? 'https://alertmanager-host:9093/api/v2/alerts'
                : 'https://example.com/hooks/lantern'
            }
            {...field('url')}
            helperText={help(
              'url',
              type === 'alertmanager'
                ? 'The full endpoint, usually ending in /api/v2/alerts'
                : 'Receives a POST with the JSON message shown below',
            )}
          />
        )}
        {type === 'webhook' && (
          <TextField
            label="Optional JSON payload"
            multiline
            minRows={4}
            maxRows={16}
            placeholder={'{"team": "checkout", "summary": "{{alert.summary}}"}'}
            {...field('payload')}
            helperText={help(
              'payload',
              'Sent as the message\'s "payload"; strings may use {{alert.name}}, {{alert.url}}, {{alert.summary}}, {{alert.state}}, {{eventName}}',
            )}
            sx={{ '& textarea': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } }}
          />
        )}
        {formError && (
          <Alert severity="error" data-testid="channel-form-error">
            {formError}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          {onCancel && (
            <Button onClick={onCancel} data-testid="channel-cancel">
              Cancel
            </Button>
          )}
          <Button type="submit" variant="contained" loading={save.isPending} data-testid="channel-save">
            {channel ? 'Save' : 'Create'}
          </Button>
        </Stack>
        {footer}
      </Stack>
    </Box>
  );
}
