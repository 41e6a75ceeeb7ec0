import { Breadcrumbs, Button, Chip, Link, Stack, Typography } from '@mui/material';
import type { Monitor } from '@lantern/shared';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../../../lib/format/dateTime';
import { paths } from '../../../lib/routes/paths';
import { useSetMonitorState } from './monitorsApi';

/** Breadcrumbs, and on an existing monitor its state, last check, Pause / Resume and View alerts. */
export function MonitorHeader({ projectId, title, monitor }: { projectId: number; title: string; monitor?: Monitor }) {
  const setState = useSetMonitorState(projectId);
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      data-testid="monitor-header"
    >
      <Breadcrumbs>
        <Link component={RouterLink} to={paths.monitors(projectId)}>
          Monitors
        </Link>
        <Typography color="text.primary">{title}</Typography>
      </Breadcrumbs>
      {monitor && (
        <>
          <Chip size="small" label={monitor.state} data-testid="monitor-form-state" />
          <Typography variant="body2" color="text.secondary">
            Last check at {monitor.lastCheckAt ? formatDateTime(new Date(monitor.lastCheckAt)) : 'never'}
          </Typography>
          <Button
            size="small"
            onClick={() => setState.mutate({ id: monitor.id, state: monitor.state === 'paused' ? 'active' : 'paused' })}
            data-testid="monitor-form-toggle"
          >
            {monitor.state === 'paused' ? 'Resume' : 'Pause'}
          </Button>
          <Button
            size="small"
            component={RouterLink}
            to={paths.alerts(projectId, { q: `monitor:${monitor.id}` })}
            data-testid="monitor-view-alerts"
          >
            View alerts
          </Button>
        </>
      )}
    </Stack>
  );
}
