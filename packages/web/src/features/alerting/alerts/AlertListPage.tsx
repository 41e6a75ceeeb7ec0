import { Typography } from '@mui/material';

/** Alerts: being built in this session (A1); replaced before the session ends. */
export function AlertListPage() {
  return <Typography data-testid="wip">Alerts</Typography>;
}
