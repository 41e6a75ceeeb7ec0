import { Typography } from '@mui/material';

/** Channel: being built in this session (A3); replaced before the session ends. */
export function ChannelShowPage() {
  return <Typography data-testid="wip">Channel</Typography>;
}
