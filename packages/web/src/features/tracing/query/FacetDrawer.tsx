import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import { Box, Drawer, IconButton, Skeleton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { FacetValues } from '../../../components/FacetValues';
import { useAttrKeys, useAttrValues, usePinFacet, type RangeQuery } from '../tracingApi';
import type { BuilderContext } from './BuilderMenus';
import { whereQuery } from './defaultQueries';
import { selectedValues, withValues } from './facetFilter';

function FacetItem({ ctx, attr, pinned, initiallyOpen }: { ctx: BuilderContext; attr: string; pinned: boolean; initiallyOpen: boolean }) {
  const selected = selectedValues(ctx.query, attr);
  const [open, setOpen] = useState(initiallyOpen || selected.length > 0);
  const values = useAttrValues(ctx.projectId, { ...ctx.range, query: whereQuery(ctx.query) || undefined, attr_key: attr }, open);
  const pin = usePinFacet();
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
              pin.mutate({ attr, pinned: !pinned });
            }}
          >
            {pinned ? <PushPinIcon fontSize="small" color="success" /> : <PushPinOutlinedIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
      </Stack>
      {open && (
        <Box sx={{ pl: 3 }}>
          {values.isPending ? <Skeleton height={60} /> : <FacetValues items={values.data?.items ?? []} selected={selected} onChange={(v) => ctx.setQuery(withValues(ctx.query, attr, v))} />}
        </Box>
      )}
    </Box>
  );
}

/** Categories: 'found' while searching, 'all' up to 10 keys, else one per prefix before the first dot; pinned first. */
function categorise(items: { value: string; pinned: boolean }[], search: string): [string, { value: string; pinned: boolean }[]][] {
  const needle = search.trim().toLowerCase();
  if (needle) return [['found', items.filter((i) => i.value.toLowerCase().includes(needle))]];
  if (items.length <= 10) return [['all', items]];
  const cats = new Map<string, { value: string; pinned: boolean }[]>();
  for (const i of items) {
    const cat = i.pinned ? 'pinned' : i.value.includes('.') && !i.value.startsWith('.') ? i.value.slice(0, i.value.indexOf('.')) : 'other';
    if (!cats.has(cat)) cats.set(cat, []);
    cats.get(cat)!.push(i);
  }
  return [...cats.entries()].sort(([a], [b]) => (a === 'pinned' ? -1 : b === 'pinned' ? 1 : a.localeCompare(b)));
}

/** The Filters drawer (500px): attribute keys by category, each expanding to its values with counts. */
export function FacetDrawer({ open, onClose, ctx }: { open: boolean; onClose: () => void; ctx: BuilderContext }) {
  const range: RangeQuery = { ...ctx.range, query: whereQuery(ctx.query) || undefined };
  const keys = useAttrKeys(ctx.projectId, { ...range, kind: 'text' }, open);
  const [search, setSearch] = useState('');
  const [closedCats, setClosedCats] = useState<Set<string>>(new Set());
  const cats = categorise(keys.data?.items ?? [], search);
  return (
    <Drawer anchor="left" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 500, p: 2 } } }} data-testid="facet-drawer">
      <TextField size="small" fullWidth autoFocus placeholder="Filter attributes" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mb: 2 }} slotProps={{ htmlInput: { 'data-testid': 'facet-search' } }} />
      {keys.isPending ? (
        <Stack spacing={1}>{[0, 1, 2, 3, 4].map((i) => <Skeleton key={i} variant="rectangular" height={40} />)}</Stack>
      ) : cats.every(([, list]) => list.length === 0) ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          There are no matching attributes.
          <br />
          Try to change filters.
        </Typography>
      ) : (
        cats.map(([name, list]) => {
          const expanded = !closedCats.has(name) && (cats.length === 1 || name === 'found' || name === 'pinned' || list.some((i) => selectedValues(ctx.query, i.value).length > 0) || closedCats.has(`open:${name}`));
          return (
            <Box key={name} sx={{ mb: 1 }}>
              <Box
                sx={{ bgcolor: '#EEEEEE', px: 1, py: 0.5, cursor: 'pointer', display: 'flex', alignItems: 'center', fontWeight: 500, fontSize: 13, textTransform: 'uppercase' }}
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
              >
                {expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                {name} ({list.length})
              </Box>
              {expanded && list.map((i, idx) => <FacetItem key={i.value} ctx={ctx} attr={i.value} pinned={i.pinned} initiallyOpen={(name === 'all' || name === 'pinned') && idx < 3} />)}
            </Box>
          );
        })
      )}
    </Drawer>
  );
}
