import SortIcon from '@mui/icons-material/Sort';
import { Button, Checkbox, MenuItem, Select, Stack } from '@mui/material';
import type { AlertSort } from './useAlertListState';
import type { AlertSelection } from './useAlertSelection';

export type BulkAction = 'close' | 'open' | 'delete' | 'close-all';

/**
 * Above the table: the page checkbox, Select all / Deselect all (n), Close (n), Open (n),
 * Delete (n) on the selection, Close all (every open alert of the filter), and the order picker.
 */
export function AlertSelectionBar({
  selection,
  total,
  openTotal,
  busy,
  sortBy,
  onSort,
  onAction,
}: {
  selection: AlertSelection;
  total: number;
  openTotal: number;
  busy: boolean;
  sortBy: AlertSort;
  onSort: (s: AlertSort) => void;
  onAction: (a: BulkAction) => void;
}) {
  const { counts } = selection;
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
      data-testid="alert-selection-bar"
    >
      <Checkbox
        checked={selection.pageState === 'all'}
        indeterminate={selection.pageState === 'some'}
        onChange={selection.togglePage}
        disabled={total === 0}
        slotProps={{ input: { 'aria-label': 'Select page' } }}
        data-testid="alert-select-page"
      />
      {selection.selection.all ? (
        <Button size="small" onClick={selection.clear} data-testid="alert-deselect-all">
          Deselect all ({counts.total})
        </Button>
      ) : (
        <Button size="small" onClick={selection.selectAll} disabled={total === 0} data-testid="alert-select-all">
          Select all ({total})
        </Button>
      )}
      {counts.open > 0 && (
        <Button
          size="small"
          variant="outlined"
          disabled={busy}
          onClick={() => onAction('close')}
          data-testid="alert-close-selected"
        >
          Close ({counts.open})
        </Button>
      )}
      {counts.closed > 0 && (
        <Button
          size="small"
          variant="outlined"
          disabled={busy}
          onClick={() => onAction('open')}
          data-testid="alert-open-selected"
        >
          Open ({counts.closed})
        </Button>
      )}
      {counts.total > 0 && (
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={busy}
          onClick={() => onAction('delete')}
          data-testid="alert-delete-selected"
        >
          Delete ({counts.total})
        </Button>
      )}
      <Stack direction="row" sx={{ flexGrow: 1 }} />
      <Button
        size="small"
        disabled={busy || openTotal === 0}
        onClick={() => onAction('close-all')}
        data-testid="alert-close-all"
      >
        Close all
      </Button>
      <Select
        size="small"
        variant="outlined"
        value={sortBy}
        onChange={(e) => onSort(e.target.value)}
        startAdornment={<SortIcon fontSize="small" sx={{ mr: 1, color: 'text.secondary' }} />}
        sx={{ bgcolor: '#F5F5F5', '& fieldset': { border: 'none' }, minWidth: 160, height: 32, fontSize: 14 }}
        data-testid="alert-sort"
      >
        <MenuItem value="updated_at">Updated at</MenuItem>
        <MenuItem value="created_at">Created at</MenuItem>
      </Select>
    </Stack>
  );
}
