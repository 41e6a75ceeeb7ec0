import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import ViewSidebarIcon from '@mui/icons-material/ViewSidebar';
import {
  Box,
  Button,
  CircularProgress,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type SavedView, toText } from '@lantern/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCurrentUser } from '../../auth/authApi';
import { useSavedViewMutations, useSavedViews } from '../tracingApi';

/** Saved views store route names; these are ours and the paths they open. */
export const VIEW_ROUTES: Record<string, { label: string; path: (projectId: number) => string }> = {
  SpanGroupList: { label: 'Groups', path: (p) => `/spans/${p}` },
  SpanList: { label: 'Spans', path: (p) => `/spans/${p}/items` },
  SpanTimeseries: { label: 'Timeseries', path: (p) => `/spans/${p}/timeseries` },
};

function viewHref(projectId: number, view: SavedView): string {
  const route = VIEW_ROUTES[view.route] ?? VIEW_ROUTES.SpanGroupList;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(view.query))
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  const qs = params.toString();
  return qs ? `${route.path(projectId)}?${qs}` : route.path(projectId);
}

function ViewList({ projectId, onOpen }: { projectId: number; onOpen: () => void }) {
  const { data, isPending } = useSavedViews(projectId);
  const { remove, pin } = useSavedViewMutations(projectId);
  const [filter, setFilter] = useState('');
  const navigate = useNavigate();
  const needle = filter.trim().toLowerCase();
  const views = (data?.views ?? []).filter((v) => !needle || v.name.toLowerCase().includes(needle));
  const busy = (id: number) =>
    (remove.isPending && remove.variables === id) || (pin.isPending && pin.variables?.id === id);
  return (
    <Box>
      <TextField
        size="small"
        fullWidth
        placeholder="Filter views"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        sx={{ mb: 1 }}
        slotProps={{ htmlInput: { 'data-testid': 'views-filter' } }}
      />
      {isPending ? (
        <CircularProgress size={20} />
      ) : views.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="views-empty">
          The list is empty.
          <br />
          Have you saved any views yet?
        </Typography>
      ) : (
        <List dense data-testid="views-list">
          {views.map((v) => {
            const systems: unknown = v.query.system;
            const system = toText(Array.isArray(systems) ? (systems as unknown[])[0] : systems) || 'all';
            return (
              <ListItem
                key={v.id}
                disablePadding
                data-testid="saved-view"
                data-pinned={v.pinned || undefined}
                secondaryAction={
                  busy(v.id) ? (
                    <CircularProgress size={18} />
                  ) : (
                    <>
                      <Tooltip title={v.pinned ? 'Unpin view' : 'Pin view to the top'}>
                        <IconButton
                          size="small"
                          onClick={() => pin.mutate({ id: v.id, pinned: !v.pinned })}
                          data-testid="view-pin"
                        >
                          {v.pinned ? (
                            <PushPinIcon fontSize="small" color="success" />
                          ) : (
                            <PushPinOutlinedIcon fontSize="small" />
                          )}
                        </IconButton>
                      </Tooltip>
                      <Tooltip title="Delete view">
                        <IconButton size="small" onClick={() => remove.mutate(v.id)} data-testid="view-delete">
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </>
                  )
                }
              >
                <ListItemButton
                  onClick={() => {
                    onOpen();
                    void navigate(viewHref(projectId, v));
                  }}
                  sx={{ pr: 10 }}
                >
                  <ListItemText
                    primary={`${VIEW_ROUTES[v.route]?.label ?? v.route} > ${system} > ${v.name}`}
                    secondary={`${typeof v.query.query === 'string' ? v.query.query : ''} · Saved by ${v.user.name || v.user.email}`}
                    slotProps={{ primary: { 'data-testid': 'saved-view-name' } as object }}
                  />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      )}
    </Box>
  );
}

/** 'Views' and '+ Save view' drawers (500px) of Explore spans (spec §2). */
export function SavedViews({ projectId, route, query }: { projectId: number; route: string; query: URLSearchParams }) {
  const [open, setOpen] = useState<'list' | 'save' | null>(null);
  const [name, setName] = useState('');
  const { save } = useSavedViewMutations(projectId);
  const user = useCurrentUser();
  const submit = () => {
    const q: Record<string, string | string[]> = {};
    for (const key of new Set(query.keys())) {
      // A view opens on the first page of its list.
      if (key === 'time_gte' || key === 'page') continue;
      const all = query.getAll(key);
      q[key] = all.length > 1 ? all : all[0];
    }
    save.mutate({ name: name.trim(), route, params: { projectId }, query: q }, { onSuccess: () => setName('') });
  };
  return (
    <Stack direction="row" spacing={1}>
      <Button size="small" startIcon={<ViewSidebarIcon />} onClick={() => setOpen('list')} data-testid="views-open">
        Views
      </Button>
      <Button
        size="small"
        startIcon={<AddIcon />}
        disabled={!user.data}
        onClick={() => setOpen('save')}
        data-testid="view-save-open"
      >
        Save view
      </Button>
      <Drawer
        anchor="right"
        open={open !== null}
        onClose={() => setOpen(null)}
        slotProps={{ paper: { sx: { width: 500, p: 2 } } }}
        data-testid="views-drawer"
      >
        <Typography variant="h6" gutterBottom>
          {open === 'save' ? 'Save view' : 'Views'}
        </Typography>
        {open === 'save' && (
          <Stack spacing={1} sx={{ mb: 3 }}>
            <TextField
              size="small"
              label="New view"
              required
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'view-name' } }}
            />
            <Stack direction="row" spacing={1}>
              <Button size="small" onClick={() => setOpen(null)}>
                Cancel
              </Button>
              <Button
                size="small"
                variant="contained"
                disabled={!name.trim() || !user.data || save.isPending}
                onClick={submit}
                data-testid="view-save"
              >
                Save
              </Button>
            </Stack>
          </Stack>
        )}
        {open && <ViewList projectId={projectId} onOpen={() => setOpen(null)} />}
      </Drawer>
    </Stack>
  );
}
