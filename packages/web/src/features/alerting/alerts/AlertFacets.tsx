import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  Collapse,
  InputAdornment,
  Paper,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { Facet } from '@lantern/shared';
import { useEffect, useRef, useState } from 'react';
import { FacetValues } from '../../../components/FacetValues';
import type { AlertListState } from './useAlertListState';

/** Spec platform §9: the alert search waits 500 ms after the last key. */
export const ALERT_SEARCH_DEBOUNCE_MS = 500;

/** 'Search alerts...' typed into the address after a pause; follows the address when it changes elsewhere. */
function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typed = useRef(value);
  useEffect(() => {
    if (value !== typed.current) setText(value);
    typed.current = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <TextField
      size="small"
      fullWidth
      placeholder="Search alerts..."
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          typed.current = next;
          onChange(next);
        }, ALERT_SEARCH_DEBOUNCE_MS);
      }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'data-testid': 'alert-search' },
      }}
    />
  );
}

/** A chosen value that no alert has any more still shows (with 0), so it can be unchecked. */
export function withSelected(
  items: { value: string; count: number }[],
  selected: string[] | undefined,
): { value: string; count: number }[] {
  const missing = (selected ?? []).filter((v) => !items.some((i) => i.value === v));
  return missing.length ? [...items, ...missing.map((value) => ({ value, count: 0 }))] : items;
}

/**
 * The alert list's sidebar: search, one outlined value list per facet, and Reset all. Below the
 * md breakpoint (900 px) the sidebar sits above the list: the facets fold behind a "Filters"
 * button (with the number of facets in use), so the alerts come first.
 */
export function AlertFacets({ state, facets }: { state: AlertListState; facets: Facet[] | undefined }) {
  const filtered = state.q !== '' || Object.keys(state.attrs).length > 0;
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const [open, setOpen] = useState(false);
  const inUse = Object.keys(state.attrs).length;
  const list = (facets ?? []).map((f) => (
    <Paper key={f.key} variant="outlined" sx={{ p: 1 }} data-testid="alert-facet" data-key={f.key}>
      <Typography variant="subtitle2" sx={{ px: 0.5, pb: 0.5, color: 'text.secondary', wordBreak: 'break-all' }}>
        {f.key}
      </Typography>
      <FacetValues
        items={withSelected(f.items, state.attrs[f.key])}
        selected={state.attrs[f.key] ?? []}
        onChange={(values) => state.setAttr(f.key, values)}
        testId={`facet-${f.key}`}
      />
    </Paper>
  ));
  return (
    <Stack spacing={2} data-testid="alert-facets">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <SearchBox value={state.q} onChange={state.setQ} />
        {narrow && (
          <Button
            size="small"
            variant={open ? 'contained' : 'outlined'}
            onClick={() => setOpen(!open)}
            aria-expanded={open}
            startIcon={<FilterListIcon fontSize="small" />}
            sx={{ flexShrink: 0 }}
            data-testid="alert-filters-toggle"
          >
            Filters{inUse ? ` (${inUse})` : ''}
          </Button>
        )}
      </Stack>
      {filtered && (
        <Box>
          <Button size="small" onClick={state.resetAll} data-testid="alert-reset-all">
            Reset all
          </Button>
        </Box>
      )}
      {narrow ? (
        <Collapse in={open} unmountOnExit>
          <Stack spacing={2}>{list}</Stack>
        </Collapse>
      ) : (
        list
      )}
    </Stack>
  );
}
