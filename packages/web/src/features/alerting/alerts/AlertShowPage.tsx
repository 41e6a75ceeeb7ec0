import { Typography } from '@mui/material';

/** Alert: being built in this session (A1); replaced before the session ends. */
export function AlertShowPage() {
  return <Typography data-testid="wip">Alert</Typography>;
}
