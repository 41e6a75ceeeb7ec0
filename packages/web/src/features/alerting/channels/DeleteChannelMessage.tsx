import type { Monitor, NotifChannel } from '@lantern/shared';
import { Box, Typography } from '@mui/material';

/** Monitors named; the rest are counted. */
const SHOWN = 10;

/**
 * The delete confirmation of a channel: what it deletes, and the monitors that notify through it
 * (deleting the channel takes it off them; they keep running and their other channels and e-mail).
 */
export function DeleteChannelMessage({
  channel,
  monitors,
  error,
}: {
  channel: NotifChannel;
  monitors: Monitor[];
  error: string;
}) {
  const n = monitors.length;
  return (
    <Box data-testid="delete-channel-message">
      <Typography>Do you really want to delete &quot;{channel.name}&quot; channel?</Typography>
      {error ? (
        <Typography color="error" variant="body2" sx={{ mt: 1 }} data-testid="delete-channel-monitors-error">
          Could not check which monitors use it: {error}
        </Typography>
      ) : n === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="delete-channel-no-monitors">
          No monitor notifies through it.
        </Typography>
      ) : (
        <>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {n === 1 ? 'This monitor notifies' : `These ${n} monitors notify`} through it and will stop sending
            notifications there (they keep running, with their other channels and e-mail):
          </Typography>
          <Box component="ul" sx={{ my: 0.5, pl: 3 }} data-testid="delete-channel-monitors">
            {monitors.slice(0, SHOWN).map((m) => (
              <Typography component="li" variant="body2" key={m.id} sx={{ fontWeight: 500 }}>
                {m.name}
              </Typography>
            ))}
            {n > SHOWN && (
              <Typography component="li" variant="body2" color="text.secondary">
                and {n - SHOWN} more
              </Typography>
            )}
          </Box>
        </>
      )}
    </Box>
  );
}
