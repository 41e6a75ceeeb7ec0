import { Breadcrumbs, Button, Chip, Link, Stack, Tooltip, Typography } from '@mui/material';
import type { Monitor, MonitorType } from '@lantern/shared';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime, formatRelative } from '../../../lib/format/dateTime';
import { paths } from '../../../lib/routes/paths';
import { useProject } from '../../projects/projectsApi';
import { useSetMonitorState } from './monitorsApi';

/**
 * The head of both monitor pages: breadcrumbs Project > Monitors > Edit (or New) {type} monitor, and
 * on an existing monitor its facts and state button. A metric monitor (spec platform §2.9) shows its
 * state, Last check at, Pause / Resume and View alerts; an error monitor (§2.10) shows Updated at (a
 * relative date, or 'None'), its state and 'Pause monitor' / 'Resume monitor'.
 */
export function MonitorHeader({
  projectId,
  type,
  monitor,
}: {
  projectId: number;
  type: MonitorType;
  monitor?: Monitor;
}) {
  const setState = useSetMonitorState(projectId);
  const project = useProject(projectId);
  const paused = monitor?.state === 'paused';
  const toggle = monitor && (
    <Button
      size="small"
      onClick={() => setState.mutate({ id: monitor.id, state: paused ? 'active' : 'paused' })}
      disabled={setState.isPending}
      data-testid="monitor-form-toggle"
    >
      {type === 'error' ? (paused ? 'Resume monitor' : 'Pause monitor') : paused ? 'Resume' : 'Pause'}
    </Button>
  );
  const state = monitor && <Chip size="small" label={monitor.state} data-testid="monitor-form-state" />;
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      data-testid="monitor-header"
    >
      <Breadcrumbs separator=">" data-testid="monitor-breadcrumbs">
        <Link
          component={RouterLink}
          to={paths.projectSettings(projectId)}
          underline="hover"
          color="inherit"
          data-testid="monitor-breadcrumb-project"
        >
          {project.data?.project.name ?? 'Project'}
        </Link>
        <Link
          component={RouterLink}
          to={paths.monitors(projectId)}
          underline="hover"
          color="inherit"
          data-testid="monitor-breadcrumb-list"
        >
          Monitors
        </Link>
        <Typography color="text.primary">
          {monitor ? 'Edit' : 'New'} {type} monitor
        </Typography>
      </Breadcrumbs>
      {monitor && type === 'metric' && (
        <>
          {state}
          <Typography variant="body2" color="text.secondary" data-testid="monitor-last-check">
            Last check at {monitor.lastCheckAt ? formatDateTime(new Date(monitor.lastCheckAt)) : 'never'}
          </Typography>
          {toggle}
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
      {monitor && type === 'error' && (
        <>
          <Typography variant="body2" color="text.secondary" data-testid="monitor-updated-at">
            Updated at{' '}
            {monitor.updatedAt ? (
              <Tooltip title={formatDateTime(new Date(monitor.updatedAt))}>
                <span>{formatRelative(new Date(monitor.updatedAt), Date.now())}</span>
              </Tooltip>
            ) : (
              'None'
            )}
          </Typography>
          {state}
          {toggle}
        </>
      )}
    </Stack>
  );
}
