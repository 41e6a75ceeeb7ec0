import RefreshIcon from '@mui/icons-material/Refresh';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import {
  Box,
  Button,
  Dialog,
  DialogContent,
  Grid,
  LinearProgress,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { PageToolbar } from '../../../components/PageToolbar';
import { AutoRefreshPicker } from '../../../components/date/AutoRefreshPicker';
import { useAutoRefresh } from '../../../components/date/useAutoRefresh';
import { Pager, type PagerState } from '../../../components/Pager';
import { pagerWindow } from '../../../components/pagerWindow';
import { useConfirm } from '../../../components/feedback/ConfirmProvider';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useAddressState } from '../../../lib/url/useAddressState';
import { RequestError } from '../../tracing/RequestError';
import { AlertFacets } from './AlertFacets';
import { AlertRow } from './AlertRow';
import { AlertSelectionBar, type BulkAction } from './AlertSelectionBar';
import { alertListParams, fetchAllAlertIds, useAlertAction, useAlerts, useCloseAll } from './alertsApi';
import { ALERTS_PER_PAGE, useAlertListState } from './useAlertListState';
import { allCounts, useAlertSelection } from './useAlertSelection';
import { usePageTitle } from '../../../components/shell/usePageTitle';

// The card (with the span card and charts) loads when an alert is opened, not with the list.
const AlertCard = lazy(() => import('./AlertCard').then((m) => ({ default: m.AlertCard })));

export const EMPTY_ALERTS_TEXT = "You don't have alerts that match selected filters.";

/** Spec platform §2.5 AlertList: search and facets, selection and bulk actions, sort, the paged table. */
export function AlertListPage() {
  const projectId = useProjectIdParam();
  const state = useAlertListState();
  const address = useAddressState();
  const filterParams = useMemo(
    () =>
      alertListParams({
        q: state.q,
        attrs: state.attrs,
        sortBy: state.sortBy,
        sortDesc: state.sortDesc,
        page: 1,
        limit: ALERTS_PER_PAGE,
      }),
    [state.q, state.attrs, state.sortBy, state.sortDesc],
  );
  const params = useMemo(() => ({ ...filterParams, page: state.page }), [filterParams, state.page]);
  const list = useAlerts(projectId, params);
  const alerts = useMemo(() => list.data?.alerts ?? [], [list.data]);
  const count = list.data?.count ?? 0;
  const selection = useAlertSelection(alerts, count, list.data?.facets, state.attrs['alert.state']);
  const action = useAlertAction(projectId ?? 0);
  const closeAll = useCloseAll(projectId ?? 0);
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const openId = Number(address.params.get('alert')) || undefined;
  // Each auto-refresh re-renders the page, so "Updated 5 minutes ago" counts from the refresh too.
  const autoRefresh = useAutoRefresh(() => void list.refetch());

  usePageTitle('Alerts');
  // A new filter is a new list: what was selected in the old one no longer applies.
  const { clear } = selection;
  useEffect(() => clear(), [filterParams, clear]);

  if (projectId === undefined) return <NotFoundPage />;

  const win = pagerWindow(state.page, ALERTS_PER_PAGE, count);
  const pager: PagerState = {
    page: win.page,
    setPage: state.setPage,
    perPage: ALERTS_PER_PAGE,
    total: count,
    pages: Math.min(win.pages, 1000),
    start: (win.page - 1) * ALERTS_PER_PAGE,
    end: Math.min(count, win.page * ALERTS_PER_PAGE),
  };
  const openTotal = allCounts(count, list.data?.facets, state.attrs['alert.state']).open;

  async function run(a: BulkAction) {
    const sel = selection.selection;
    try {
      if (a === 'close-all') {
        if (
          !(await confirm({ title: 'Close all', message: `Close all ${openTotal} open alerts that match the filter?` }))
        )
          return;
        const n = await closeAll.mutateAsync(filterParams);
        snackbar.notifySuccess(`${n} ${n === 1 ? 'alert' : 'alerts'} closed`);
      } else if (a === 'close' && sel.all) {
        const n = await closeAll.mutateAsync(filterParams);
        snackbar.notifySuccess(`${n} ${n === 1 ? 'alert' : 'alerts'} closed`);
      } else {
        if (
          a === 'delete' &&
          !(await confirm({ title: 'Delete', message: 'Do you really want to delete selected alerts?' }))
        )
          return;
        const chosen = sel.all
          ? await fetchAllAlertIds(projectId!, filterParams)
          : [...sel.ids].map(([id, st]) => ({ id, state: st }));
        const ids = chosen
          .filter((x) => a === 'delete' || x.state === (a === 'close' ? 'open' : 'closed'))
          .map((x) => x.id);
        const n = await action.mutateAsync({ action: a, ids });
        snackbar.notifySuccess(
          `${n} ${n === 1 ? 'alert' : 'alerts'} ${a === 'delete' ? 'deleted' : a === 'close' ? 'closed' : 'reopened'}`,
        );
      }
      selection.clear();
    } catch {
      // The error toast comes from the mutation cache (spec §8).
    }
  }

  return (
    <Stack spacing={2} data-testid="alert-list">
      <PageToolbar title="Alerts">
        <Button
          size="small"
          variant="outlined"
          startIcon={<RefreshIcon />}
          onClick={() => void list.refetch()}
          data-testid="alert-reload"
        >
          Reload
        </Button>
        <AutoRefreshPicker state={autoRefresh} />
      </PageToolbar>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 3 }}>
          <AlertFacets state={state} facets={list.data?.facets} />
        </Grid>
        <Grid size={{ xs: 12, md: 9 }}>
          <Paper variant="outlined" sx={{ p: 1 }}>
            <AlertSelectionBar
              selection={selection}
              total={count}
              openTotal={openTotal}
              busy={action.isPending || closeAll.isPending}
              sortBy={state.sortBy}
              onSort={state.setSort}
              onAction={(a) => void run(a)}
            />
            <Box sx={{ height: 4 }}>{list.isFetching && <LinearProgress />}</Box>
            {list.error && !list.data ? (
              <RequestError error={list.error} />
            ) : list.isPending ? (
              <Skeleton variant="rectangular" height={240} />
            ) : alerts.length === 0 ? (
              <Stack
                sx={{ alignItems: 'center', py: 8, color: 'text.secondary' }}
                spacing={1}
                data-testid="alert-list-empty"
              >
                <SearchOffIcon fontSize="large" />
                <Typography>{EMPTY_ALERTS_TEXT}</Typography>
              </Stack>
            ) : (
              <Table size="small" data-testid="alert-table">
                <TableBody>
                  {alerts.map((a) => (
                    <AlertRow
                      key={a.id}
                      alert={a}
                      now={Date.now()}
                      selected={selection.isSelected(a.id)}
                      onToggle={() => selection.toggle(a)}
                      onOpen={() => address.set({ alert: String(a.id) })}
                      onChip={(key, value) => state.setAttr(key, [value])}
                    />
                  ))}
                </TableBody>
              </Table>
            )}
            <Pager pager={pager} testId="alert-pager" />
          </Paper>
        </Grid>
      </Grid>
      <Dialog
        open={openId !== undefined}
        onClose={() => address.set({ alert: null })}
        maxWidth={false}
        fullWidth
        slotProps={{ paper: { sx: { maxWidth: 1200 } } }}
        data-testid="alert-dialog"
      >
        <DialogContent>
          <Suspense fallback={<Skeleton variant="rectangular" height={300} />}>
            {openId !== undefined && <AlertCard projectId={projectId} alertId={openId} />}
          </Suspense>
        </DialogContent>
      </Dialog>
    </Stack>
  );
}
