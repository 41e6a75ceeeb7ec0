import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import FileCopyIcon from '@mui/icons-material/FileCopyOutlined';
import ErrorIcon from '@mui/icons-material/Error';
import ExploreIcon from '@mui/icons-material/Explore';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LockIcon from '@mui/icons-material/Lock';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import RadarIcon from '@mui/icons-material/Radar';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Paper, Tooltip, Typography } from '@mui/material';
import {
  parseVariableParams,
  substitutePromqlVariables,
  substituteVariables,
  type GridColumn,
  type GridColumnInput,
} from '@lantern/shared';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '../../../../components/feedback/ConfirmProvider';
import { useSnackbar } from '../../../../components/feedback/SnackbarProvider';
import { paths } from '../../../../lib/routes/paths';
import { fetchColumnYaml, useDeleteColumn, useSaveColumn, type Range } from './gridApi';
import { PanelBody } from './panels/PanelBody';
import { PanelViewDialog } from './PanelViewDialog';

/** Title bar + padding of a panel card: the body gets `height × 20 − 10 − PANEL_CHROME` px. */
export const PANEL_CHROME = 44;

const metricParams = (c: Exclude<GridColumn, { type: 'promql' }>) =>
  c.type === 'heatmap'
    ? { metric: [c.params.metric], alias: [] as string[] }
    : { metric: c.params.metrics.map((m) => m.name), alias: c.params.metrics.map((m) => m.alias) };

/** A new panel like `c`, named "<name> (copy)", placed right below it (the panels under it move down). */
export function duplicateInput(c: GridColumn): GridColumnInput {
  const { id: _id, projectId: _p, dashId: _d, createdAt: _c, updatedAt: _u, ...input } = c;
  return { ...input, name: `${c.name} (copy)`, yAxis: c.yAxis + c.height };
}

/**
 * One dashboard panel (reference frontend §6 "Cell"): a title bar that drags the panel, the
 * description as a tooltip, the query error as a red icon with its text, and a menu with View, Edit
 * (a lock when not editable), Duplicate, Monitor, Copy as YAML, Open in explore and Delete.
 */
export function GridPanel({
  projectId,
  column,
  query: panelQuery,
  range,
  height,
  editable,
  onEdit,
}: {
  projectId: number;
  column: GridColumn;
  query: string;
  range: Range;
  /** Pixel height of the panel's body. */
  height: number;
  editable: boolean;
  onEdit: () => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [viewing, setViewing] = useState(false);
  const navigate = useNavigate();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const del = useDeleteColumn(projectId, column.dashId);
  const save = useSaveColumn(projectId, column.dashId);
  const onError = useCallback((e: string | undefined) => setError(e), []);
  const close = () => setAnchor(null);
  // A monitor or an Explore query made from the panel gets the variables' values written in.
  const query = substituteVariables(panelQuery, parseVariableParams(range.var ?? []));

  const monitor = () => {
    if (column.type === 'promql' || column.type === 'heatmap') return;
    const m = metricParams(column);
    const columns = column.params.columnMap;
    void navigate(
      paths.monitorMetricNew(projectId, {
        name: column.name,
        metric: m.metric,
        alias: m.alias,
        query,
        columns: JSON.stringify(columns),
      }),
    );
  };
  const explore = () => {
    if (column.type === 'promql') {
      const promql = substitutePromqlVariables(column.params.query, parseVariableParams(range.var ?? []));
      void navigate(paths.metricsExplore(projectId, { mode: 'promql', promql }));
      return;
    }
    const m = metricParams(column);
    void navigate(paths.metricsExplore(projectId, { metric: m.metric, alias: m.alias, query }));
  };
  const copyYaml = async () => {
    close();
    try {
      const text = await fetchColumnYaml(projectId, column.dashId, column.id);
      await navigator.clipboard.writeText(text);
      snackbar.notifySuccess('The panel YAML was copied to the clipboard');
    } catch (err) {
      snackbar.notifyError(`Could not copy the panel YAML: ${(err as Error).message}`);
    }
  };
  const duplicate = () => {
    close();
    save.mutate(
      { input: duplicateInput(column) },
      {
        onSuccess: () => snackbar.notifySuccess(`The panel "${column.name}" was duplicated`),
        onError: (err) => snackbar.notifyError(`Could not duplicate the panel: ${err.message}`),
      },
    );
  };
  const remove = async () => {
    close();
    if (await confirm({ title: 'Delete panel', message: `Delete the panel "${column.name}"?` })) del.mutate(column.id);
  };

  return (
    <Paper
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="grid-panel"
      data-panel-name={column.name}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          pl: 1.5,
          pr: 0.5,
          minHeight: 36,
          bgcolor: '#EEF4FB',
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Box
          className="drag-handle"
          title="Drag to move"
          sx={{
            flex: 1,
            minWidth: 0,
            display: 'flex',
            alignItems: 'center',
            gap: 0.5,
            cursor: 'move',
            alignSelf: 'stretch',
          }}
          data-testid="panel-title"
        >
          <Typography variant="subtitle2" noWrap sx={{ color: error ? 'error.main' : 'text.primary' }}>
            {column.name}
          </Typography>
          {error && (
            <Tooltip title={<Box sx={{ whiteSpace: 'pre-wrap' }}>{error}</Box>}>
              <ErrorIcon color="error" fontSize="small" data-testid="panel-error-icon" aria-label={error} />
            </Tooltip>
          )}
          {column.description && (
            <Tooltip title={column.description}>
              <InfoOutlinedIcon fontSize="small" sx={{ color: 'text.secondary' }} data-testid="panel-description" />
            </Tooltip>
          )}
        </Box>
        <IconButton
          size="small"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label="Panel menu"
          data-testid="panel-menu"
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, p: 0.5 }}>
        <PanelBody
          projectId={projectId}
          column={column}
          query={panelQuery}
          range={range}
          height={height}
          onError={onError}
        />
      </Box>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem onClick={() => (close(), setViewing(true))}>
          <ListItemIcon>
            <VisibilityIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>View</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => (close(), onEdit())}>
          <ListItemIcon>{editable ? <EditIcon fontSize="small" /> : <LockIcon fontSize="small" />}</ListItemIcon>
          <ListItemText>Edit</ListItemText>
        </MenuItem>
        {editable && (
          <MenuItem onClick={duplicate} disabled={save.isPending}>
            <ListItemIcon>
              <FileCopyIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Duplicate</ListItemText>
          </MenuItem>
        )}
        {(column.type === 'chart' || column.type === 'table') && (
          <MenuItem onClick={monitor}>
            <ListItemIcon>
              <RadarIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Monitor</ListItemText>
          </MenuItem>
        )}
        <MenuItem onClick={() => void copyYaml()}>
          <ListItemIcon>
            <ContentCopyIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Copy as YAML</ListItemText>
        </MenuItem>
        <MenuItem onClick={explore}>
          <ListItemIcon>
            <ExploreIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Open in explore</ListItemText>
        </MenuItem>
        {editable && (
          <MenuItem onClick={() => void remove()}>
            <ListItemIcon>
              <DeleteIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Delete</ListItemText>
          </MenuItem>
        )}
      </Menu>
      {viewing && (
        <PanelViewDialog
          projectId={projectId}
          column={column}
          query={query}
          duration={Date.parse(range.time_lt) - Date.parse(range.time_gte)}
          onClose={() => setViewing(false)}
        />
      )}
    </Paper>
  );
}
