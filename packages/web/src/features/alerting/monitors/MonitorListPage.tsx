import AddIcon from '@mui/icons-material/Add';
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  Link,
  Menu,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { MonitorState, type Monitor } from '@lantern/shared';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Pager, usePager } from '../../../components/Pager';
import { AutoRefreshPicker } from '../../../components/date/AutoRefreshPicker';
import { RelativeTime } from '../../../components/date/RelativeTime';
import { useAutoRefresh } from '../../../components/date/useAutoRefresh';
import { useConfirm } from '../../../components/feedback/ConfirmProvider';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useAddressState } from '../../../lib/url/useAddressState';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { useDeleteMonitor, useMonitors, useSetMonitorState } from './monitorsApi';
import { usePageTitle } from '../../../components/shell/usePageTitle';

const STATE_COLOR: Record<MonitorState, 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  active: 'success',
  paused: 'default',
  firing: 'error',
  'no-data': 'warning',
  failed: 'error',
};
const editPath = (m: Monitor) =>
  m.type === 'metric' ? paths.monitorMetric(m.projectId, m.id) : paths.monitorError(m.projectId, m.id);
const alertsOf = (m: Monitor, state: 'open' | 'closed') =>
  paths.alerts(m.projectId, { q: `monitor:${m.id}`, 'attrs.alert.state': state });

/**
 * The delete confirmation of a monitor. A metric monitor's alerts and their history go with it (an
 * error monitor's alerts belong to their span groups and stay): it says how many.
 */
function DeleteMonitorMessage({ monitor: m }: { monitor: Monitor }) {
  const total = m.alertOpenCount + m.alertClosedCount;
  return (
    <>
      <Typography>Do you really want to delete &quot;{m.name}&quot; monitor?</Typography>
      {m.type === 'metric' && total > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="delete-monitor-alerts">
          Its {total} {total === 1 ? 'alert' : 'alerts'} ({m.alertOpenCount} open) will be deleted with it, history
          included.
        </Typography>
      )}
    </>
  );
}

/**
 * A click in a row opens its monitor (spec platform §2.8), unless it lands on one of the row's own
 * controls (the name link, the alert chips, Pause / Resume, Edit, Delete) or ends a text selection.
 */
function opensMonitor(target: EventTarget, row: HTMLElement): boolean {
  if (!(target instanceof Element) || !row.contains(target)) return false;
  const control = target.closest('a, button, input, [role="button"]');
  if (control && row.contains(control)) return false;
  return !window.getSelection()?.toString();
}

/** Spec platform §2.8: Create monitor menu, state chips, the monitor table with its actions. */
export function MonitorListPage() {
  const projectId = useProjectIdParam();
  const address = useAddressState();
  usePageTitle('Monitors');
  const stateParam = address.params.get('state') ?? '';
  const state = MonitorState.safeParse(stateParam).success ? (stateParam as MonitorState) : '';
  const list = useMonitors(projectId ?? 0, state);
  const all = useMonitors(projectId ?? 0, '');
  const setState = useSetMonitorState(projectId ?? 0);
  const remove = useDeleteMonitor(projectId ?? 0);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const monitors = list.data?.monitors ?? [];
  const pager = usePager(monitors.length, 10);
  // Each auto-refresh re-renders the page, so "last activity" counts from the refresh too.
  const autoRefresh = useAutoRefresh(() => {
    void list.refetch();
    void all.refetch();
  });
  const now = Date.now();
  if (projectId === undefined) return <NotFoundPage />;

  const onDelete = async (m: Monitor) => {
    if (await confirm({ title: 'Delete monitor', message: <DeleteMonitorMessage monitor={m} /> })) remove.mutate(m.id);
  };

  return (
    <Stack spacing={2} data-testid="monitor-list">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={(e) => setMenu(e.currentTarget)}
          data-testid="create-monitor"
        >
          Create monitor
        </Button>
        <Menu open={menu !== null} anchorEl={menu} onClose={() => setMenu(null)}>
          <MenuItem
            onClick={() => void navigate(paths.monitorMetricNew(projectId))}
            data-testid="create-metric-monitor"
          >
            Create metrics monitor
          </MenuItem>
          <MenuItem onClick={() => void navigate(paths.monitorErrorNew(projectId))} data-testid="create-error-monitor">
            Create errors monitor
          </MenuItem>
        </Menu>
        <Box sx={{ flexGrow: 1 }} />
        <Chip
          label={`All ${all.data?.count ?? ''}`}
          color={state === '' ? 'primary' : 'default'}
          onClick={() => address.set({ state: null })}
          data-testid="monitor-state-all"
        />
        {(all.data?.states ?? []).map((s) => (
          <Chip
            key={s.state}
            label={`${s.state} ${s.count}`}
            color={state === s.state ? 'primary' : 'default'}
            onClick={() => address.set({ state: s.state })}
            data-testid={`monitor-state-${s.state}`}
          />
        ))}
        <AutoRefreshPicker state={autoRefresh} />
      </Stack>
      {list.error && <Alert severity="error">{list.error.message}</Alert>}
      {list.isPending ? (
        <Skeleton variant="rectangular" height={200} />
      ) : monitors.length === 0 ? (
        <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary" data-testid="monitors-empty">
          There are no monitors
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="monitor-table">
            <TableHead>
              <TableRow>
                <TableCell>Monitor Name</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Alerts</TableCell>
                <TableCell>Last activity at</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {monitors.slice(pager.start, pager.end).map((m) => (
                <TableRow
                  key={m.id}
                  hover
                  onClick={(e) => {
                    if (!opensMonitor(e.target, e.currentTarget)) return;
                    void navigate(editPath(m));
                  }}
                  sx={{ cursor: 'pointer' }}
                  data-testid="monitor-row"
                  data-monitor={m.name}
                >
                  <TableCell>
                    <Link component={RouterLink} to={editPath(m)} data-testid="monitor-name">
                      {m.name}
                    </Link>
                  </TableCell>
                  <TableCell>{m.type}</TableCell>
                  <TableCell>
                    <Tooltip title={m.stateReason}>
                      <Chip size="small" label={m.state} color={STATE_COLOR[m.state]} data-testid="monitor-state" />
                    </Tooltip>
                  </TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5}>
                      <Chip
                        size="small"
                        clickable
                        component={RouterLink}
                        to={alertsOf(m, 'open')}
                        label={`${m.alertOpenCount} open`}
                        color={m.alertOpenCount ? 'error' : 'default'}
                        variant="outlined"
                        data-testid="monitor-open-alerts"
                      />
                      <Chip
                        size="small"
                        clickable
                        component={RouterLink}
                        to={alertsOf(m, 'closed')}
                        label={`${m.alertClosedCount} closed`}
                        variant="outlined"
                        data-testid="monitor-closed-alerts"
                      />
                    </Stack>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <RelativeTime
                      iso={m.lastCheckAt ?? m.updatedAt ?? m.createdAt}
                      now={now}
                      testId="monitor-last-activity"
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={m.state === 'paused' ? 'Resume' : 'Pause'}>
                      <IconButton
                        size="small"
                        onClick={() => setState.mutate({ id: m.id, state: m.state === 'paused' ? 'active' : 'paused' })}
                        data-testid={m.state === 'paused' ? 'monitor-resume' : 'monitor-pause'}
                      >
                        {m.state === 'paused' ? <PlayArrowIcon fontSize="small" /> : <PauseIcon fontSize="small" />}
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Edit">
                      <IconButton size="small" component={RouterLink} to={editPath(m)} data-testid="monitor-edit">
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete">
                      <IconButton size="small" onClick={() => void onDelete(m)} data-testid="monitor-delete">
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {monitors.length > 10 && <Pager pager={pager} />}
        </Box>
      )}
    </Stack>
  );
}
