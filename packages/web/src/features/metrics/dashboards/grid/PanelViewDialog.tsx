import CloseIcon from '@mui/icons-material/Close';
import { Box, Dialog, DialogContent, IconButton, Toolbar, Typography } from '@mui/material';
import type { GridColumn } from '@lantern/shared';
import { DateRangePicker } from '../../../../components/date/DateRangePicker';
import { useLocalDateRange } from '../../../../components/date/useDateRange';
import { PanelBody } from './panels/PanelBody';

const VERBOSE_LEGEND = { type: 'table', placement: 'bottom', values: ['avg', 'last', 'min', 'max'] } as const;
/** Spec §9: the verbose legend keeps names up to 150 characters (panels cut them at 40). */
const VERBOSE_LEGEND_MAX_LENGTH = 150;

/** View: the panel large (height 500, table legend) with a date range of its own (reference §6). */
export function PanelViewDialog({
  projectId,
  column,
  query,
  duration,
  onClose,
}: {
  projectId: number;
  column: GridColumn;
  query: string;
  duration: number;
  onClose: () => void;
}) {
  const range = useLocalDateRange(undefined, { maxDays: 90, duration });
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 1200 } } }}
      data-testid="panel-view-dialog"
    >
      <Toolbar variant="dense" sx={{ gap: 1, bgcolor: 'grey.50', borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" sx={{ flex: 1 }} noWrap>
          {column.name}
        </Typography>
        <DateRangePicker state={range} autoRefresh={false} />
        <IconButton onClick={onClose} aria-label="Close">
          <CloseIcon />
        </IconButton>
      </Toolbar>
      <DialogContent>
        <Box sx={{ minHeight: 500 }}>
          <PanelBody
            projectId={projectId}
            column={column}
            query={query}
            range={range.apiParams}
            height={500}
            legend={{ ...VERBOSE_LEGEND, values: [...VERBOSE_LEGEND.values] }}
            legendMaxLength={VERBOSE_LEGEND_MAX_LENGTH}
          />
        </Box>
      </DialogContent>
    </Dialog>
  );
}
