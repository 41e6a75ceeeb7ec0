import { Typography } from '@mui/material';

/** Metrics explore: being built in this session (M1); replaced before the session ends. */
export function MetricsExplorePage() {
  return <Typography data-testid="wip">Metrics explore</Typography>;
}
