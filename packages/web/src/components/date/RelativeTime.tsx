import { Tooltip } from '@mui/material';
import { formatDateTime, formatRelative } from '../../lib/format/dateTime';

/** "5 minutes ago", with the date and time in a tooltip (and the title, for a copy or a test). */
export function RelativeTime({ iso, now, testId }: { iso: string; now: number; testId?: string }) {
  const date = new Date(iso);
  return (
    <Tooltip title={formatDateTime(date)}>
      <span data-testid={testId} data-time={iso}>
        {formatRelative(date, now)}
      </span>
    </Tooltip>
  );
}
