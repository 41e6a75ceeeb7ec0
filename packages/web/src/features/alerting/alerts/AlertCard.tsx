import { Box, Breadcrumbs, Button, Link, Skeleton, Stack, Typography } from '@mui/material';
import type { Alert } from '@lantern/shared';
import { Link as RouterLink } from 'react-router-dom';
import { FixedDateRangePicker } from '../../../components/date/DateRangePicker';
import { useLocalDateRange } from '../../../components/date/useDateRange';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { paths } from '../../../lib/routes/paths';
import { truncate } from '../../../lib/text/truncate';
import { toAddress } from '../../../lib/time/dateRange';
import { useProject } from '../../projects/projectsApi';
import { RequestError } from '../../tracing/RequestError';
import { AlertErrorBody } from './AlertErrorBody';
import { AlertHistory } from './AlertHistory';
import { AlertMetricBody } from './AlertMetricBody';
import { AlertStateIcon } from './AlertRow';
import { useAlert, useAlertAction } from './alertsApi';
import { isErrorParams, isMetricParams } from './alertText';

/** 'Close alert' when open, 'Reopen alert' when closed. */
export function AlertStateButton({ alert }: { alert: Alert }) {
  const action = useAlertAction(alert.projectId);
  const snackbar = useSnackbar();
  const open = alert.state === 'open';
  const run = () =>
    action.mutate(
      { action: open ? 'close' : 'open', ids: [alert.id] },
      { onSuccess: () => snackbar.notifySuccess(open ? 'The alert is closed' : 'The alert is reopened') },
    );
  return (
    <Button
      size="small"
      variant={open ? 'contained' : 'outlined'}
      color={open ? 'success' : 'primary'}
      // Not `disabled` while the action runs: a disabled button drops the keyboard focus to the page,
      // out of the dialog, and Escape then did not close it (two whole test runs); a second click waits.
      aria-disabled={action.isPending || undefined}
      onClick={() => {
        if (!action.isPending) run();
      }}
      data-testid={open ? 'alert-close' : 'alert-reopen'}
    >
      {open ? 'Close alert' : 'Reopen alert'}
    </Button>
  );
}

/**
 * Spec platform §2.6 the alert card, in the list's dialog and on AlertShow: breadcrumbs, a fixed
 * date range around the alert's update time, the body of its type (the error's span, or the
 * metric's facts and chart), Close / Reopen, and the history of its events and notifications.
 */
export function AlertCard({ projectId, alertId }: { projectId: number; alertId: number }) {
  const { data, error, isPending, isFetching } = useAlert(projectId, alertId);
  const project = useProject(projectId);
  const alert = data?.alert;
  const anchor = alert ? new Date(alert.updatedAt).getTime() : undefined;
  const dateRange = useLocalDateRange(anchor);

  if (error) return <RequestError error={error} />;
  if (isPending || !alert || anchor === undefined) return <Skeleton variant="rectangular" height={300} />;
  return (
    <Stack
      spacing={2}
      data-testid="alert-card"
      data-alert-id={alert.id}
      data-state={alert.state}
      aria-busy={isFetching || undefined}
    >
      <Stack
        direction="row"
        sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, py: 1, borderRadius: 1, flexWrap: 'wrap', gap: 1 }}
      >
        <Breadcrumbs separator=">" sx={{ flexGrow: 1 }} data-testid="alert-breadcrumbs">
          <Link component={RouterLink} to={paths.projectSettings(projectId)} underline="hover">
            {project.data?.project.name ?? `Project ${projectId}`}
          </Link>
          <Link component={RouterLink} to={paths.alerts(projectId)} underline="hover">
            Alerts
          </Link>
          <Link
            component={RouterLink}
            to={paths.alert(projectId, alert.id)}
            underline="hover"
            title={alert.name}
            data-testid="alert-breadcrumb-name"
          >
            {truncate(alert.name, 60)}
          </Link>
        </Breadcrumbs>
        <FixedDateRangePicker state={dateRange} anchor={anchor} />
      </Stack>

      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <AlertStateIcon state={alert.state} />
        <Typography
          variant="h5"
          component="h2"
          sx={{ flexGrow: 1, wordBreak: 'break-word' }}
          data-testid="alert-card-title"
        >
          {alert.name}
        </Typography>
        <AlertStateButton alert={alert} />
      </Stack>

      <Box>
        {isMetricParams(alert) ? (
          <AlertMetricBody alert={alert} range={dateRange.apiParams} />
        ) : isErrorParams(alert) ? (
          // The span card is long: the history goes above it.
          <AlertErrorBody alert={alert} time={toAddress(dateRange.range)}>
            <AlertHistory projectId={projectId} alert={alert} />
          </AlertErrorBody>
        ) : (
          <Typography color="text.secondary">This alert has no details.</Typography>
        )}
      </Box>

      {!isErrorParams(alert) && <AlertHistory projectId={projectId} alert={alert} />}
    </Stack>
  );
}
