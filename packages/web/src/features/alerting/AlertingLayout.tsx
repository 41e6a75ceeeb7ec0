import { Typography } from '@mui/material';

/** Alerting: being built in this session (A1); replaced before the session ends. */
export function AlertingLayout() {
  return <Typography data-testid="wip">Alerting</Typography>;
}
