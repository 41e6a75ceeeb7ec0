import { Box, Checkbox, List, ListItemButton, Pagination, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { truncateMiddle } from '../lib/text/truncate';
import { formatNum } from '@lantern/shared';
import { pagerWindow } from './pagerWindow';

/** Facet lists page at 10 and show a filter field above 10 values (spec platform §9). */
export const FACET_PAGE = 10;

/**
 * One facet's values with counts: a checkbox toggles a value in a multi-selection, a click on the
 * row selects only that value (or clears it when it was the only one).
 */
export function FacetValues({
  items,
  selected,
  onChange,
  testId = 'facet-values',
}: {
  items: { value: string; count: number }[];
  selected: string[];
  onChange: (values: string[]) => void;
  testId?: string;
}) {
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const needle = filter.trim().toLowerCase();
  const shown = needle ? items.filter((i) => i.value.toLowerCase().includes(needle)) : items;
  const win = pagerWindow(page, FACET_PAGE, shown.length);
  const toggle = (v: string) => onChange(selected.includes(v) ? selected.filter((x) => x !== v) : [...selected, v]);
  return (
    <Box data-testid={testId}>
      {items.length > FACET_PAGE && (
        <TextField
          size="small"
          fullWidth
          placeholder="Filter values"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          sx={{ mb: 1 }}
        />
      )}
      {shown.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
          No matching values
        </Typography>
      ) : (
        <List dense disablePadding>
          {shown.slice(win.start, win.end).map((i) => (
            <ListItemButton
              key={i.value}
              sx={{ py: 0 }}
              onClick={() => onChange(selected.length === 1 && selected[0] === i.value ? [] : [i.value])}
              data-testid="facet-value"
            >
              <Checkbox
                size="small"
                checked={selected.includes(i.value)}
                onClick={(e) => {
                  e.stopPropagation();
                  toggle(i.value);
                }}
                sx={{ p: 0.5 }}
              />
              <Typography variant="body2" sx={{ flexGrow: 1, wordBreak: 'break-all' }} title={i.value}>
                {truncateMiddle(i.value, 80)}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                {formatNum(i.count)}
              </Typography>
            </ListItemButton>
          ))}
        </List>
      )}
      {win.pages > 1 && (
        <Pagination size="small" count={win.pages} page={win.page} siblingCount={1} onChange={(_e, p) => setPage(p)} />
      )}
    </Box>
  );
}
