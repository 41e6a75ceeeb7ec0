import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, IconButton, Toolbar, Typography } from '@mui/material';
import type { Dashboard, GridColumn } from '@lantern/shared';
import { DateRangePicker } from '../../../../components/date/DateRangePicker';
import type { DateRangeState } from '../../../../components/date/useDateRange';
import { GridTab } from '../grid/GridTab';
import type { RowGroups } from './rowFilter';

/**
 * A table row opened (reference frontend §1.3.13): a dialog up to 1900 px wide titled with the
 * dashboard and the row, the dashboard page's own date range picker (its periods, Reload, Now; the
 * range is the page's, so it stays changed after closing), a close button, and the dashboard's grid
 * narrowed to the row, read-only.
 */
export function TableRowDialog({
  projectId,
  dashboard,
  grid,
  dateRange,
  title,
  groups,
  onClose,
}: {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  dateRange: DateRangeState;
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
        <DateRangePicker state={dateRange} autoRefresh={false} />
        <IconButton onClick={onClose} aria-label="Close">
          <CloseIcon />
        </IconButton>
      </Toolbar>
      <DialogContent>
        <GridTab projectId={projectId} dashboard={dashboard} grid={grid} range={dateRange.apiParams} row={groups} />
      </DialogContent>
    </Dialog>
  );
}
