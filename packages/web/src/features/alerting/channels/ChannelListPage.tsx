import { Typography } from '@mui/material';

/** Channels: being built in this session (A3); replaced before the session ends. */
export function ChannelListPage() {
  return <Typography data-testid="wip">Channels</Typography>;
}
