import { Typography } from '@mui/material';

/** Error monitor: being built in this session (A2); replaced before the session ends. */
export function MonitorErrorPage() {
  return <Typography data-testid="wip">Error monitor</Typography>;
}
