import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockIcon from '@mui/icons-material/Lock';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import ErrorIcon from '@mui/icons-material/Error';
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Paper, Tooltip, Typography } from '@mui/material';
import type { Gauge } from '@lantern/shared';
import { useState, type DragEvent } from 'react';
import { joinQuery, useGaugeValues, type Range } from '../grid/gridApi';
import { queryError } from '../grid/units';
import { GaugeFace } from './GaugeFace';
import { gaugeFace } from './gaugeLook';

/**
 * One gauge (reference frontend §1.3.13): the name (description as tooltip), a menu with Edit
 * (a lock when not editable) and Delete, and the value as text, a stat or a dial (GaugeFace); the
 * bottom border takes the value's threshold colour, else the first column's colour. Cards drag to reorder when editable.
 */
export function GaugeCard({
  projectId,
  gauge,
  range,
  query,
  editable,
  onEdit,
  onDelete,
  drag,
}: {
  projectId: number;
  gauge: Gauge;
  range: Range;
  query?: string;
  editable: boolean;
  onEdit: () => void;
  onDelete: () => void;
  drag?: {
    onDragStart: (e: DragEvent) => void;
    onDragOver: (e: DragEvent) => void;
    onDrop: (e: DragEvent) => void;
    onDragEnd: () => void;
    dragging: boolean;
  };
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const res = useGaugeValues(projectId, { metrics: gauge.metrics, query: joinQuery(gauge.query, query) }, range);
  const error = res.error?.message ?? queryError(res.data?.query.parts);
  const face = gaugeFace(gauge, res.data);
  return (
    <Paper
      variant="outlined"
      draggable={editable}
      {...(editable && drag
        ? { onDragStart: drag.onDragStart, onDragOver: drag.onDragOver, onDrop: drag.onDrop, onDragEnd: drag.onDragEnd }
        : {})}
      sx={{
        minWidth: 100,
        px: 1.5,
        pt: 0.5,
        pb: 1,
        borderBottom: `8px solid ${face.color}`,
        cursor: editable ? 'grab' : 'default',
        opacity: drag?.dragging ? 0.4 : 1,
      }}
      data-testid="gauge-card"
      data-gauge-name={gauge.name}
      data-color={face.color}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Tooltip title={gauge.description || gauge.name}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
            {gauge.name}
          </Typography>
        </Tooltip>
        {error && (
          <Tooltip title={error}>
            <ErrorIcon color="error" fontSize="small" data-testid="gauge-error" />
          </Tooltip>
        )}
        <IconButton
          size="small"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label="Gauge menu"
          data-testid="gauge-menu"
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Box>
      <GaugeFace look={gauge} {...face} />
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => (setAnchor(null), onEdit())}>
          <ListItemIcon>{editable ? <EditIcon fontSize="small" /> : <LockIcon fontSize="small" />}</ListItemIcon>
          <ListItemText>Edit</ListItemText>
        </MenuItem>
        {editable && (
          <MenuItem onClick={() => (setAnchor(null), onDelete())}>
            <ListItemIcon>
              <DeleteIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Delete</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </Paper>
  );
}
