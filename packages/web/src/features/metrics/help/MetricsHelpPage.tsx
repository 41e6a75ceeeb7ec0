import { Typography } from '@mui/material';

/** Metrics help: being built in this session (M1); replaced before the session ends. */
export function MetricsHelpPage() {
  return <Typography data-testid="wip">Metrics help</Typography>;
}
