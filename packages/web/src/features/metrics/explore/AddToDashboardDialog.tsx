import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { ColumnMap, MetricAlias } from '@lantern/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';
import { useDashboards } from '../dashboards/dashboardsApi';
import { useAddChartToDashboard } from '../dashboards/grid/gridApi';

const NEW = 'new';

/**
 * Metrics explore's 'Add to dashboard' (issue 41): the current metrics and query as a chart panel
 * of an existing dashboard or of a new one; the dashboard's grid opens with it.
 */
export function AddToDashboardDialog(props: {
  projectId: number;
  metrics: MetricAlias[];
  query: string;
  columnMap: ColumnMap;
  onClose: () => void;
}) {
  const list = useDashboards(props.projectId);
  const add = useAddChartToDashboard(props.projectId);
  const navigate = useNavigate();
  const dashboards = list.data?.dashboards ?? [];
  const [target, setTarget] = useState<string>('');
  const picked = target || (dashboards[0]?.id ?? NEW);
  const [newName, setNewName] = useState('');
  const [name, setName] = useState(props.metrics.map((m) => m.name).join(', '));
  // Until the list is there, "New dashboard…" only stands in for the first dashboard: not a choice yet.
  const ready = list.isSuccess && name.trim() !== '' && (picked !== NEW || newName.trim() !== '') && !add.isPending;
  const submit = () =>
    add.mutate(
      {
        ...(picked === NEW ? { newName: newName.trim() } : { dashId: picked }),
        name: name.trim(),
        metrics: props.metrics,
        query: props.query,
        columnMap: props.columnMap,
      },
      { onSuccess: (dashId) => void navigate(paths.dashboard(props.projectId, dashId, { tab: 'grid' })) },
    );
  return (
    <Dialog open onClose={props.onClose} maxWidth="sm" fullWidth data-testid="add-to-dashboard-dialog">
      <DialogTitle>Add to dashboard</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            select
            size="small"
            label="Dashboard"
            value={picked}
            onChange={(e) => setTarget(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'add-to-dashboard-target' } }}
          >
            {dashboards.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.name}
              </MenuItem>
            ))}
            <MenuItem value={NEW}>New dashboard…</MenuItem>
          </TextField>
          {picked === NEW && (
            <TextField
              size="small"
              label="New dashboard's name"
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'add-to-dashboard-new-name', maxLength: 500 } }}
            />
          )}
          <TextField
            size="small"
            label="Panel name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'add-to-dashboard-panel-name', maxLength: 500 } }}
          />
          {list.error && (
            <Alert severity="error" data-testid="add-to-dashboard-list-error">
              {list.error.message}
            </Alert>
          )}
          {add.error && (
            <Alert severity="error" data-testid="add-to-dashboard-error">
              {add.error.message}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" disabled={!ready} onClick={submit} data-testid="add-to-dashboard-submit">
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
