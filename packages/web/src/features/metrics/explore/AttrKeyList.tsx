import { Box, Checkbox, List, ListItemButton, ListItemIcon, ListItemText, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';

export interface AttrKeyCount {
  value: string;
  count: number;
}

/**
 * The explore page's side list (spec tracing §Metrics explore): attribute keys with the number of
 * metrics having each, searchable; checked keys filter the metrics table to metrics having all of them.
 */
export function AttrKeyList({
  keys,
  selected,
  onChange,
}: {
  keys: AttrKeyCount[];
  selected: string[];
  onChange: (keys: string[]) => void;
}) {
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const s = search.trim().toLowerCase();
    const found = s ? keys.filter((k) => k.value.toLowerCase().includes(s)) : keys;
    // Checked keys stay on top even when the search or the range would drop them.
    const missing = selected.filter((v) => !found.some((k) => k.value === v)).map((value) => ({ value, count: 0 }));
    return [
      ...missing,
      ...found.filter((k) => selected.includes(k.value)),
      ...found.filter((k) => !selected.includes(k.value)),
    ];
  }, [keys, search, selected]);
  const toggle = (v: string) => onChange(selected.includes(v) ? selected.filter((x) => x !== v) : [...selected, v]);

  return (
    <Box data-testid="attr-key-list" sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <TextField
        size="small"
        placeholder="Search attributes"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'attr-key-search' } }}
      />
      <List dense disablePadding sx={{ mt: 1, maxHeight: 600, overflowY: 'auto' }}>
        {shown.map((k) => (
          <ListItemButton key={k.value} onClick={() => toggle(k.value)} sx={{ py: 0, px: 0.5 }} data-testid="attr-key">
            <ListItemIcon sx={{ minWidth: 32 }}>
              <Checkbox edge="start" size="small" checked={selected.includes(k.value)} tabIndex={-1} disableRipple />
            </ListItemIcon>
            <ListItemText
              primary={k.value}
              slotProps={{ primary: { noWrap: true, title: k.value, sx: { fontSize: 13 } } }}
            />
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {k.count}
            </Typography>
          </ListItemButton>
        ))}
        {shown.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
            No attributes
          </Typography>
        )}
      </List>
    </Box>
  );
}
