import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, IconButton, Toolbar, Typography } from '@mui/material';
import type { Dashboard, GridColumn } from '@lantern/shared';
import { GridTab } from '../grid/GridTab';
import type { Range } from '../grid/gridApi';
import type { RowGroups } from './rowFilter';

/**
 * A table row opened (reference frontend §1.3.13): a dialog up to 1900 px wide titled with the
 * dashboard and the row, a close button, and the dashboard's grid narrowed to the row, read-only.
 */
export function TableRowDialog({
  projectId,
  dashboard,
  grid,
  range,
  title,
  groups,
  onClose,
}: {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  range: Range;
  /** The row's grouping values joined for display. */
  title: string;
  groups: RowGroups;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '95vw', maxWidth: 1900 } } }}
      data-testid="table-row-dialog"
    >
      <Toolbar variant="dense" sx={{ gap: 1, bgcolor: 'grey.50', borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }} noWrap data-testid="table-row-title">
          {dashboard.name}{' '}
          <Typography component="span" variant="h6" color="text.secondary" sx={{ ml: 1.5 }}>
            {title}
          </Typography>
        </Typography>
        <IconButton onClick={onClose} aria-label="Close">
          <CloseIcon />
        </IconButton>
      </Toolbar>
      <DialogContent>
        <GridTab projectId={projectId} dashboard={dashboard} grid={grid} range={range} row={groups} />
      </DialogContent>
    </Dialog>
  );
}
