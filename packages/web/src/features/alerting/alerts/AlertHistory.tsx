import {
  Box,
  Chip,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { Alert, AlertNotification } from '@lantern/shared';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { useAlertEvents } from './alertsApi';
import { eventText } from './eventText';

const STATE_COLORS: Record<string, 'success' | 'error' | 'default' | 'warning'> = {
  sent: 'success',
  failed: 'error',
  pending: 'warning',
  skipped: 'default',
};

function notificationTarget(n: AlertNotification): string {
  if (n.target === 'email') return `E-mail to ${n.recipients.join(', ') || 'nobody'}`;
  return n.channelName ? `${n.channelName} (${n.channelType})` : 'a deleted channel';
}

function Notification({ n }: { n: AlertNotification }) {
  return (
    <Box data-testid="alert-notification" data-state={n.state}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Chip size="small" label={n.state} color={STATE_COLORS[n.state] ?? 'default'} variant="outlined" />
        <Typography variant="body2">{notificationTarget(n)}</Typography>
        {n.attempts > 1 && (
          <Typography variant="caption" color="text.secondary">
            {n.attempts} attempts
          </Typography>
        )}
      </Stack>
      {n.lastError && (
        <Typography
          variant="caption"
          color="error"
          component="div"
          sx={{ wordBreak: 'break-word' }}
          data-testid="alert-notification-error"
        >
          {n.lastError}
        </Typography>
      )}
    </Box>
  );
}

/** The alert's events, newest first, each with the notifications sent for it and their delivery. */
export function AlertHistory({ projectId, alert }: { projectId: number; alert: Alert }) {
  const { data, error } = useAlertEvents(projectId, alert.id);
  return (
    <Paper variant="outlined" data-testid="alert-history">
      <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5, fontWeight: 500 }}>
        History
      </Typography>
      {error ? (
        <Typography color="error" sx={{ p: 2 }}>
          {error.message}
        </Typography>
      ) : !data ? (
        <Skeleton variant="rectangular" height={80} sx={{ m: 2 }} />
      ) : data.events.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          No events yet.
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 220 }}>Time</TableCell>
              <TableCell sx={{ width: 240 }}>Event</TableCell>
              <TableCell>Notifications</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.events.map((e) => (
              <TableRow key={e.id} data-testid="alert-event" data-event={e.name}>
                <TableCell sx={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                  {formatDateTimeFull(new Date(e.createdAt))}
                </TableCell>
                <TableCell sx={{ verticalAlign: 'top' }} data-testid="alert-event-text">
                  {eventText(e)}
                </TableCell>
                <TableCell sx={{ verticalAlign: 'top' }}>
                  {e.notifications.length === 0 ? (
                    <Typography variant="body2" color="text.secondary">
                      none
                    </Typography>
                  ) : (
                    <Stack spacing={0.5}>
                      {e.notifications.map((n) => (
                        <Notification key={n.target} n={n} />
                      ))}
                    </Stack>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
