import { Typography } from '@mui/material';

/** Dashboard: being built in this session (M2); replaced before the session ends. */
export function DashboardPage() {
  return <Typography data-testid="wip">Dashboard</Typography>;
}
