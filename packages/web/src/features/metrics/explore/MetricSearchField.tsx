import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';

/** Spec platform §9: the metric search waits 1000 ms after the last key before it asks the server. */
export const METRIC_SEARCH_DEBOUNCE_MS = 1000;

/**
 * 'Quick search over metric names' (reference §1.3.12, 300px). `onType` hears every key, for the
 * table to narrow at once; `onSearch` hears the text once typing pauses. It follows `value` when
 * the address changes elsewhere (Back, a link).
 */
export function MetricSearchField({
  value,
  onType,
  onSearch,
}: {
  value: string;
  onType: (text: string) => void;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      clearTimeout(timer.current);
      setText(value);
      onType(value);
    }
    sent.current = value;
  }, [value, onType]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <TextField
      size="small"
      placeholder="Quick search over metric names"
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        onType(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          sent.current = next.trim();
          onSearch(next.trim());
        }, METRIC_SEARCH_DEBOUNCE_MS);
      }}
      sx={{ width: 300, maxWidth: '100%' }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'data-testid': 'metric-search', 'aria-label': 'Quick search over metric names' },
      }}
    />
  );
}
