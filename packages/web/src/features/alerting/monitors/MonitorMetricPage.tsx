import { Typography } from '@mui/material';

/** Metric monitor: being built in this session (A2); replaced before the session ends. */
export function MonitorMetricPage() {
  return <Typography data-testid="wip">Metric monitor</Typography>;
}
