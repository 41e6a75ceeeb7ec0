import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import { Box, Drawer, IconButton, Skeleton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { FacetValues } from './FacetValues';

export interface FacetKey {
  value: string;
  pinned: boolean;
}

/** Where the drawer's keys and values come from, and how a selection goes into the query. */
export interface FacetSource {
  keys: { data?: { items: FacetKey[] }; isPending: boolean };
  /** A hook: the values (with counts) of one key, loaded only while `enabled`. */
  useValues: (
    attr: string,
    enabled: boolean,
  ) => { data?: { items: { value: string; count: number }[] }; isPending: boolean };
  selected: (attr: string) => string[];
  select: (attr: string, values: string[]) => void;
  pin: (attr: string, pinned: boolean) => void;
}

function FacetItem({
  source,
  attr,
  pinned,
  initiallyOpen,
}: {
  source: FacetSource;
  attr: string;
  pinned: boolean;
  initiallyOpen: boolean;
}) {
  const selected = source.selected(attr);
  const [open, setOpen] = useState(initiallyOpen || selected.length > 0);
  const values = source.useValues(attr, open);
  return (
    <Box data-testid="facet-item" data-attr={attr}>
      <Stack direction="row" sx={{ alignItems: 'center', cursor: 'pointer' }} onClick={() => setOpen(!open)}>
        {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
        <Typography variant="body2" sx={{ flexGrow: 1, fontWeight: selected.length ? 600 : undefined }}>
          {attr}
        </Typography>
        <Tooltip title={pinned ? 'Unpin attribute' : 'Pin attribute to the top'}>
          <IconButton
            size="small"
            onClick={(e) => {
              e.stopPropagation();
              source.pin(attr, !pinned);
            }}
            data-testid="facet-pin"
          >
            {pinned ? <PushPinIcon fontSize="small" color="success" /> : <PushPinOutlinedIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
      </Stack>
      {open && (
        <Box sx={{ pl: 3 }}>
          {values.isPending ? (
            <Skeleton height={60} />
          ) : (
            <FacetValues
              items={values.data?.items ?? []}
              selected={selected}
              onChange={(v) => source.select(attr, v)}
            />
          )}
        </Box>
      )}
    </Box>
  );
}

/** Categories: 'found' while searching, 'all' up to 10 keys, else one per prefix before the first dot; pinned first. */
function categorise(items: FacetKey[], search: string): [string, FacetKey[]][] {
  const needle = search.trim().toLowerCase();
  if (needle) return [['found', items.filter((i) => i.value.toLowerCase().includes(needle))]];
  if (items.length <= 10) return [['all', items]];
  const cats = new Map<string, FacetKey[]>();
  for (const i of items) {
    const cat = i.pinned
      ? 'pinned'
      : i.value.includes('.') && !i.value.startsWith('.')
        ? i.value.slice(0, i.value.indexOf('.'))
        : 'other';
    if (!cats.has(cat)) cats.set(cat, []);
    cats.get(cat)!.push(i);
  }
  return [...cats.entries()].sort(([a], [b]) => (a === 'pinned' ? -1 : b === 'pinned' ? 1 : a.localeCompare(b)));
}

/**
 * The Filters drawer (reference frontend §1.3.5, 500 px, spans and metrics alike): attribute keys by
 * category, each expanding to its values with counts; checking values writes a `where` part. It
 * stacks above dialogs, since the metrics query builder opens it from inside one.
 */
export function FacetDrawer({ open, onClose, source }: { open: boolean; onClose: () => void; source: FacetSource }) {
  const [search, setSearch] = useState('');
  const [closedCats, setClosedCats] = useState<Set<string>>(new Set());
  const cats = categorise(source.keys.data?.items ?? [], search);
  return (
    <Drawer
      anchor="left"
      open={open}
      onClose={onClose}
      sx={{ zIndex: (t) => t.zIndex.modal + 1 }}
      slotProps={{ paper: { sx: { width: 500, p: 2 } } }}
      data-testid="facet-drawer"
    >
      <TextField
        size="small"
        fullWidth
        autoFocus
        placeholder="Filter attributes"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ mb: 2 }}
        slotProps={{ htmlInput: { 'data-testid': 'facet-search' } }}
      />
      {source.keys.isPending ? (
        <Stack spacing={1}>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} variant="rectangular" height={40} />
          ))}
        </Stack>
      ) : cats.every(([, list]) => list.length === 0) ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          There are no matching attributes.
          <br />
          Try to change filters.
        </Typography>
      ) : (
        cats.map(([name, list]) => {
          const expanded =
            !closedCats.has(name) &&
            (cats.length === 1 ||
              name === 'found' ||
              name === 'pinned' ||
              list.some((i) => source.selected(i.value).length > 0) ||
              closedCats.has(`open:${name}`));
          return (
            <Box key={name} sx={{ mb: 1 }}>
              <Box
                sx={{
                  bgcolor: '#EEEEEE',
                  px: 1,
                  py: 0.5,
                  cursor: 'pointer',
                  display: 'flex',
                  alignItems: 'center',
                  fontWeight: 500,
                  fontSize: 13,
                  textTransform: 'uppercase',
                }}
                onClick={() =>
                  setClosedCats((prev) => {
                    const next = new Set(prev);
                    if (expanded) {
                      next.add(name);
                      next.delete(`open:${name}`);
                    } else {
                      next.delete(name);
                      next.add(`open:${name}`);
                    }
                    return next;
                  })
                }
                data-testid="facet-category"
              >
                {expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                {name} ({list.length})
              </Box>
              {expanded &&
                list.map((i, idx) => (
                  <FacetItem
                    key={i.value}
                    source={source}
                    attr={i.value}
                    pinned={i.pinned}
                    initiallyOpen={(name === 'all' || name === 'pinned') && idx < 3}
                  />
                ))}
            </Box>
          );
        })
      )}
    </Drawer>
  );
}
