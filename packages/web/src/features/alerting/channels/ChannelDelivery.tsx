import type { ChannelState, NotifChannel } from '@lantern/shared';
import { Box, Chip, Stack, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { formatDateTime, formatRelative } from '../../../lib/format/dateTime';

/** Spec §2.11: success-coloured when delivering, error-coloured when disabled, grey otherwise. */
const STATE_COLOR: Record<ChannelState, string> = {
  delivering: 'success.main',
  disabled: 'error.main',
  paused: 'grey.500',
};

export function ChannelStateDot({ state }: { state: ChannelState }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="channel-state" data-state={state}>
      <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: STATE_COLOR[state], flexShrink: 0 }} />
      <Typography variant="body2">{state}</Typography>
    </Stack>
  );
}

const when = (iso: string, now: number) => (
  <Tooltip title={formatDateTime(new Date(iso))}>
    <span>{formatRelative(new Date(iso), now)}</span>
  </Tooltip>
);

/** "in 25 s", "in 4 min", "in 2 h": when a pending retry is due ("now" once it is). */
export function dueIn(iso: string, now: number): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  if (s <= 0) return 'now';
  if (s < 60) return `in ${s} s`;
  if (s < 3600) return `in ${Math.round(s / 60)} min`;
  return `in ${Math.round(s / 3600)} h`;
}

/** Whether the last error is newer than the last delivery: only then is it the channel's news. */
export function failingNow(d: NotifChannel['delivery']): boolean {
  return d.lastErrorAt !== null && (d.lastDeliveredAt === null || d.lastErrorAt >= d.lastDeliveredAt);
}

/** One line per channel in the list: last delivery, last error, pending notifications. */
export function DeliverySummary({ channel, now }: { channel: NotifChannel; now: number }) {
  const d = channel.delivery;
  return (
    <Stack spacing={0.25} data-testid="channel-delivery">
      <Typography variant="body2" color="text.secondary" data-testid="channel-last-delivered">
        {d.lastDeliveredAt ? <>Delivered {when(d.lastDeliveredAt, now)}</> : 'Nothing delivered yet'}
        {d.pending > 0 && (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={`${d.pending} pending${d.nextAttemptAt ? `, next try ${dueIn(d.nextAttemptAt, now)}` : ''}`}
            sx={{ ml: 1 }}
            data-testid="channel-pending"
          />
        )}
        {d.failed > 0 && (
          <Tooltip title="Notifications given up on after a permanent failure or the last retry">
            <Chip
              size="small"
              color="error"
              variant="outlined"
              label={`${d.failed} failed`}
              sx={{ ml: 1 }}
              data-testid="channel-failed"
            />
          </Tooltip>
        )}
      </Typography>
      {failingNow(d) && (
        <Typography
          variant="body2"
          color="error"
          noWrap
          sx={{ maxWidth: 420 }}
          title={d.lastError}
          data-testid="channel-last-error"
        >
          Failed {when(d.lastErrorAt!, now)}: {d.lastError}
        </Typography>
      )}
    </Stack>
  );
}

/** The edit page's delivery panel: every fact the server keeps about this channel's deliveries. */
export function DeliveryDetails({ channel, now }: { channel: NotifChannel; now: number }) {
  const d = channel.delivery;
  const rows: [string, ReactNode, string][] = [
    ['State', <ChannelStateDot key="s" state={channel.state} />, 'state'],
    ['Last delivered', d.lastDeliveredAt ? when(d.lastDeliveredAt, now) : 'never', 'last-delivered'],
    [
      'Pending notifications',
      d.pending && d.nextAttemptAt ? `${d.pending}, next try ${dueIn(d.nextAttemptAt, now)}` : String(d.pending),
      'pending',
    ],
    ['Given up', String(d.failed), 'failed'],
    [
      'Last error',
      d.lastErrorAt ? (
        <>
          {when(d.lastErrorAt, now)}: {d.lastError}
        </>
      ) : (
        'none'
      ),
      'last-error',
    ],
    ['Failures in a row', String(d.consecutiveFailures), 'failures'],
  ];
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: '180px 1fr', rowGap: 1, columnGap: 2, m: 0 }}
      data-testid="channel-delivery-details"
    >
      {rows.map(([label, value, id]) => (
        <Box key={id} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            sx={{
              m: 0,
              wordBreak: 'break-word',
              color: id === 'last-error' && failingNow(d) ? 'error.main' : undefined,
            }}
            data-testid={`delivery-${id}`}
          >
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
