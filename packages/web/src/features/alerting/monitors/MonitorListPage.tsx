import { Typography } from '@mui/material';

/** Monitors: being built in this session (A2); replaced before the session ends. */
export function MonitorListPage() {
  return <Typography data-testid="wip">Monitors</Typography>;
}
