import { Typography } from '@mui/material';

/** Email notifications: being built in this session (A3); replaced before the session ends. */
export function EmailNotificationsPage() {
  return <Typography data-testid="wip">Email notifications</Typography>;
}
