import { Typography } from '@mui/material';

/** Metrics: being built in this session (M1); replaced before the session ends. */
export function MetricsLayout() {
  return <Typography data-testid="wip">Metrics</Typography>;
}
