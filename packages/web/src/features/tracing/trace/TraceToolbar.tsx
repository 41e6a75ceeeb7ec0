import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import SearchIcon from '@mui/icons-material/Search';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import { Button, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';

/**
 * Above the trace timeline: expand all / collapse all, and a search box that finds spans by name
 * or attribute value, with the match count and previous / next (Enter and Shift+Enter too).
 */
export function TraceToolbar({
  onExpandAll,
  onCollapseAll,
  search,
  onSearch,
  matchCount,
  matchIndex,
  onStep,
}: {
  onExpandAll: () => void;
  onCollapseAll: () => void;
  search: string;
  onSearch: (text: string) => void;
  matchCount: number;
  matchIndex: number;
  /** +1 for the next match, -1 for the previous one. */
  onStep: (delta: 1 | -1) => void;
}) {
  const searching = search.trim() !== '';
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}
      useFlexGap
      data-testid="trace-toolbar"
    >
      <Button size="small" startIcon={<UnfoldMoreIcon />} onClick={onExpandAll} data-testid="trace-expand-all">
        Expand all
      </Button>
      <Button size="small" startIcon={<UnfoldLessIcon />} onClick={onCollapseAll} data-testid="trace-collapse-all">
        Collapse all
      </Button>
      <TextField
        size="small"
        placeholder="Find spans by name or attribute value"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && matchCount > 0) {
            e.preventDefault();
            onStep(e.shiftKey ? -1 : 1);
          }
        }}
        sx={{ ml: 'auto', width: 360, maxWidth: '100%' }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { 'data-testid': 'trace-search', 'aria-label': 'Find spans in this trace' },
        }}
      />
      {searching && (
        <Typography
          variant="body2"
          color={matchCount === 0 ? 'error' : 'text.secondary'}
          sx={{ minWidth: 72 }}
          data-testid="trace-search-count"
        >
          {matchCount === 0 ? 'No match' : `${matchIndex + 1} of ${matchCount}`}
        </Typography>
      )}
      <Tooltip title="Previous match (Shift+Enter)">
        <span>
          <IconButton
            size="small"
            disabled={matchCount === 0}
            onClick={() => onStep(-1)}
            aria-label="Previous match"
            data-testid="trace-search-prev"
          >
            <KeyboardArrowUpIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Next match (Enter)">
        <span>
          <IconButton
            size="small"
            disabled={matchCount === 0}
            onClick={() => onStep(1)}
            aria-label="Next match"
            data-testid="trace-search-next"
          >
            <KeyboardArrowDownIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}
