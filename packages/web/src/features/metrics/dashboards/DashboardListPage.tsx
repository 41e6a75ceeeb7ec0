import AddIcon from '@mui/icons-material/Add';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Button,
  Chip,
  IconButton,
  InputAdornment,
  Link,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Dashboard } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { usePageTitle } from '../../../components/shell/usePageTitle';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useAddressState } from '../../../lib/url/useAddressState';
import { useDashboards, usePinDashboard } from './dashboardsApi';
import { NewDashboardDialog } from './NewDashboardDialog';

/** The dashboards whose name or a tag holds `search`, with `tag` when one is picked (the server's order: pinned first). */
export function filterDashboards(list: readonly Dashboard[], search: string, tag: string): Dashboard[] {
  const s = search.trim().toLowerCase();
  return list.filter(
    (d) =>
      (tag === '' || d.tags.includes(tag)) &&
      (s === '' || d.name.toLowerCase().includes(s) || d.tags.some((t) => t.toLowerCase().includes(s))),
  );
}

/**
 * The dashboards page (issue 41, `/metrics/:projectId/dashboards`): every dashboard, pinned first,
 * with its tags; a search over names and tags and a tag to narrow by, both in the address (`q`,
 * `tag`); pin from the list; "New dashboard" opens the template gallery.
 */
export function DashboardListPage() {
  const projectId = useProjectIdParam();
  const list = useDashboards(projectId ?? 0);
  const pin = usePinDashboard(projectId ?? 0);
  const address = useAddressState();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  usePageTitle('Dashboards');
  const search = address.params.get('q') ?? '';
  const tag = address.params.get('tag') ?? '';
  const dashboards = useMemo(() => list.data?.dashboards ?? [], [list.data]);
  const shown = useMemo(() => filterDashboards(dashboards, search, tag), [dashboards, search, tag]);
  const allTags = useMemo(() => [...new Set(dashboards.flatMap((d) => d.tags))].sort(), [dashboards]);
  if (projectId === undefined) return <NotFoundPage />;
  if (list.error) return <Alert severity="error">{list.error.message}</Alert>;
  const pickTag = (t: string) => address.set({ tag: t === tag ? null : t });

  return (
    <Stack spacing={2} data-testid="dashboard-list-page">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          placeholder="Search dashboards and tags"
          value={search}
          onChange={(e) => address.set({ q: e.target.value || null }, { replace: true })}
          sx={{ width: 340 }}
          slotProps={{
            htmlInput: { 'data-testid': 'dashboard-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {allTags.map((t) => (
          <Chip
            key={t}
            label={t}
            size="small"
            color={t === tag ? 'primary' : 'default'}
            variant={t === tag ? 'filled' : 'outlined'}
            onClick={() => pickTag(t)}
            data-testid="tag-filter"
          />
        ))}
        <Stack sx={{ flexGrow: 1 }} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setCreating(true)}
          data-testid="new-dashboard"
        >
          New dashboard
        </Button>
      </Stack>
      {list.isPending ? (
        <Skeleton variant="rectangular" height={200} />
      ) : (
        <Table size="small" data-testid="dashboard-list">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 48 }} />
              <TableCell>Name</TableCell>
              <TableCell>Tags</TableCell>
              <TableCell align="right">Updated</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((d) => (
              <TableRow key={d.id} hover data-testid="dashboard-row" data-dashboard={d.name}>
                <TableCell>
                  <Tooltip title={d.pinned ? 'Unpin' : 'Pin to the top of the list'}>
                    <IconButton
                      size="small"
                      onClick={() => pin.mutate({ dashId: d.id, pinned: !d.pinned })}
                      aria-pressed={d.pinned}
                      data-testid="dashboard-row-pin"
                    >
                      {d.pinned ? <PushPinIcon fontSize="small" /> : <PushPinOutlinedIcon fontSize="small" />}
                    </IconButton>
                  </Tooltip>
                </TableCell>
                <TableCell>
                  <Link component={RouterLink} to={paths.dashboard(projectId, d.id)} data-testid="dashboard-link">
                    {d.name}
                  </Link>
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5}>
                    {d.tags.map((t) => (
                      <Chip key={t} size="small" label={t} onClick={() => pickTag(t)} data-testid="dashboard-tag" />
                    ))}
                  </Stack>
                </TableCell>
                <TableCell align="right" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
                  {new Date(d.updatedAt).toLocaleString()}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {!list.isPending && shown.length === 0 && (
        <Typography color="text.secondary" data-testid="dashboard-list-empty">
          {dashboards.length ? 'No dashboard matches.' : 'No dashboards yet: start one with New dashboard.'}
        </Typography>
      )}
      {creating && (
        <NewDashboardDialog
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(d) => void navigate(paths.dashboard(projectId, d.id))}
        />
      )}
    </Stack>
  );
}
