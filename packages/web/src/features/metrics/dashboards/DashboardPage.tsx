import { Alert, Box, Button, Skeleton, Stack, Tab, Tabs } from '@mui/material';
import type { Dashboard } from '@lantern/shared';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { useDateRange } from '../../../components/date/useDateRange';
import { useConfirm } from '../../../components/feedback/ConfirmProvider';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { useAddressState } from '../../../lib/url/useAddressState';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { NotFoundPage } from '../../../app/NotFoundPage';
import {
  DASHBOARD_MAX_DAYS,
  isDashboardMissing,
  useCloneDashboard,
  useCreateDashboard,
  useDashboard,
  useDashboards,
  useDeleteDashboard,
  usePinDashboard,
  useRenameDashboard,
} from './dashboardsApi';
import { dashboardTab, lastDashboard, rememberDashboard } from './dashboardTab';
import { DashboardToolbar, type DashboardAction } from './DashboardToolbar';
import { GridTab } from './grid/GridTab';
import { ImportYamlButton } from './ImportYamlButton';
import { NameDialog } from './NameDialog';
import { NewDashboardDialog } from './NewDashboardDialog';
import { NewDashboardForm } from './NewDashboardForm';
import { DashTableTab } from './table/DashTableTab';
import { addressKey, addressValue, pickedValues, useVariableRange, type Picked } from './variables/variableState';
import { VariablePickers } from './variables/VariablePickers';
import { VariablesDialog } from './variables/VariablesDialog';
import { usePageTitle } from '../../../components/shell/usePageTitle';
import { preloadCharts } from '../../../components/charts/EChart';

const NO_VARIABLES: Dashboard['variables'] = [];

/** The YAML editor (CodeMirror) loads when its tab opens: most visits never show it. */
const DashYamlTab = lazy(() => import('./yaml/DashYamlTab').then((m) => ({ default: m.DashYamlTab })));

/**
 * Spec Dashboard page (`/metrics/:projectId` and `/metrics/:projectId/:dashId`): the new-dashboard
 * form when there are none; otherwise the picker goes to the last opened (or first) dashboard, and
 * a dashboard shows its toolbar and the tabs Table / Grid / YAML (in the `tab` parameter).
 */
export function DashboardPage() {
  const projectId = useProjectIdParam();
  const { dashId } = useParams();
  const list = useDashboards(projectId ?? 0);
  // The chart library loads while the dashboard and its panels' queries run.
  useEffect(preloadCharts, []);
  const create = useCreateDashboard(projectId ?? 0);
  const navigate = useNavigate();
  const [gallery, setGallery] = useState(false);
  usePageTitle(list.data?.dashboards.find((d) => String(d.id) === dashId)?.name ?? 'Dashboards');
  if (projectId === undefined) return <NotFoundPage />;
  if (list.error) return <Alert severity="error">{list.error.message}</Alert>;
  if (list.isPending) return <Skeleton variant="rectangular" height={300} />;
  const dashboards = list.data.dashboards;
  if (dashboards.length === 0) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <NewDashboardForm
          busy={create.isPending}
          error={create.error?.message}
          onCreate={(name) =>
            create.mutate(name, { onSuccess: (r) => void navigate(paths.dashboard(projectId, r.dashboard.id)) })
          }
        />
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={() => setGallery(true)} data-testid="start-from-template">
            Start from a template
          </Button>
          <ImportYamlButton projectId={projectId} />
        </Stack>
        {gallery && (
          <NewDashboardDialog
            projectId={projectId}
            onClose={() => setGallery(false)}
            onCreated={(d) => void navigate(paths.dashboard(projectId, d.id))}
          />
        )}
      </Stack>
    );
  }
  if (dashId === undefined) {
    return <Navigate to={paths.dashboard(projectId, fallbackDashboard(projectId, dashboards).id)} replace />;
  }
  return (
    <DashboardView
      projectId={projectId}
      dashId={dashId}
      dashboards={dashboards}
      onOpenPicker={() => void list.refetch()}
    />
  );
}

/** Where the picker goes without a (known) dashboard: the last opened, else the first (spec Dashboard page). */
function fallbackDashboard(projectId: number, dashboards: Dashboard[], except?: string): Dashboard {
  const last = lastDashboard(projectId);
  const others = dashboards.filter((d) => d.id !== except);
  return others.find((d) => d.id === last) ?? others[0] ?? dashboards[0];
}

function DashboardView({
  projectId,
  dashId,
  dashboards,
  onOpenPicker,
}: {
  projectId: number;
  dashId: string;
  dashboards: Dashboard[];
  onOpenPicker: () => void;
}) {
  const range = useDateRange({ maxDays: DASHBOARD_MAX_DAYS });
  const address = useAddressState();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  // A tab clicked on this dashboard is shown as is; one carried from elsewhere may switch (dashboardTab).
  const [clickedOn, setClickedOn] = useState<string>();
  const [naming, setNaming] = useState<'new' | 'edit' | null>(null);
  const [editingVariables, setEditingVariables] = useState(false);
  const rename = useRenameDashboard(projectId);
  const clone = useCloneDashboard(projectId);
  const remove = useDeleteDashboard(projectId);
  const pin = usePinDashboard(projectId);
  // This dashboard deleted from its menu: the list reloads before the page moves on to another one,
  // the deleted one is not asked for again (a 404 in the console) and is no "not found" to report.
  // Forgotten once another one shows (going back to the deleted one later is an old link again).
  const [deleted, setDeleted] = useState<string>();
  if (deleted !== undefined && deleted !== dashId) setDeleted(undefined);
  const deleting = (remove.isPending && remove.variables === dashId) || deleted === dashId;
  const show = useDashboard(projectId, dashId, deleting);
  const variables = show.data?.dashboard.variables ?? NO_VARIABLES;
  const apiRange = useVariableRange(range.apiParams, variables);
  const onPick = useCallback(
    (name: string, value: Picked, opts?: { replace: boolean }) =>
      address.set({ [addressKey(name)]: addressValue(value) }, opts),
    [address],
  );

  useEffect(() => {
    if (show.data) rememberDashboard(projectId, dashId);
  }, [show.data, projectId, dashId]);
  // An unknown or deleted dashboard (an old bookmark), or another project's (403): on to the last
  // opened or the first one (reference frontend §1.3.13), never to itself again.
  const missing = !deleting && isDashboardMissing(show.error);
  const fallback = missing ? fallbackDashboard(projectId, dashboards, dashId) : undefined;
  const goTo = fallback && fallback.id !== dashId ? fallback.id : undefined;
  useEffect(() => {
    if (goTo === undefined) return;
    snackbar.notify('Dashboard not found: showing another one');
    void navigate(paths.dashboard(projectId, goTo), { replace: true });
  }, [goTo, projectId, navigate, snackbar]);

  const param = address.params.get('tab');
  const tab = show.data && dashboardTab(param, show.data.dashboard, show.data.grid.length, clickedOn === dashId);
  // The address names the tab shown, also when this dashboard switched it.
  useEffect(() => {
    if (tab && param && param !== tab) address.set({ tab }, { replace: true });
  }, [tab, param, address]);

  if (goTo !== undefined || deleting) return <Skeleton variant="rectangular" height={300} />;
  if (show.error) return <Alert severity="error">{show.error.message}</Alert>;
  if (show.isPending || !tab) return <Skeleton variant="rectangular" height={300} />;
  const { dashboard, grid } = show.data;
  // navigate() returns a promise that settles once the route has rendered; nothing waits for it.
  // Picking or cloning keeps the tab (spec Dashboard page); the next dashboard may switch it.
  const open = (d: { id: string }, keepTab = true) =>
    void navigate(paths.dashboard(projectId, d.id, keepTab ? { tab } : undefined));

  const onAction = async (a: DashboardAction) => {
    if (a === 'new' || a === 'edit') setNaming(a);
    if (a === 'clone') clone.mutate(dashId, { onSuccess: (r) => open(r.dashboard) });
    if (
      a === 'delete' &&
      (await confirm({
        title: 'Delete dashboard',
        message: `Do you really want to delete "${dashboard.name}" dashboard?`,
      }))
    ) {
      // On to the last opened (or first) of the others, remembered; with none left, the new-dashboard form.
      const next = dashboards.filter((d) => d.id !== dashId).length
        ? fallbackDashboard(projectId, dashboards, dashId)
        : undefined;
      remove.mutate(dashId, {
        onSuccess: () => {
          setDeleted(dashId);
          if (next) rememberDashboard(projectId, next.id);
          void navigate(next ? paths.dashboard(projectId, next.id) : paths.metrics(projectId), { replace: true });
        },
      });
    }
  };

  return (
    <Stack spacing={2} data-testid="dashboard-page" data-dashboard={dashboard.name}>
      <DashboardToolbar
        projectId={projectId}
        onOpenPicker={onOpenPicker}
        dashboards={dashboards}
        current={dashboard}
        range={range}
        onPick={open}
        // confirm() only resolves (true or false) and the mutations report their own errors.
        onAction={(a) => void onAction(a)}
        onPin={() => pin.mutate({ dashId, pinned: !dashboard.pinned })}
      />
      <VariablePickers
        projectId={projectId}
        variables={variables}
        picked={pickedValues(variables, address.params)}
        range={range.apiParams}
        onPick={onPick}
        onEdit={() => setEditingVariables(true)}
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={tab}
          onChange={(_e, v: string) => {
            setClickedOn(dashId);
            address.set({ tab: v });
          }}
          aria-label="Dashboard view"
        >
          <Tab value="table" label="Table" data-testid="dash-tab-table" />
          <Tab value="grid" label="Grid" data-testid="dash-tab-grid" />
          <Tab value="yaml" label="YAML" data-testid="dash-tab-yaml" />
        </Tabs>
      </Box>
      {tab === 'table' && (
        <DashTableTab projectId={projectId} dashboard={dashboard} grid={grid} dateRange={range} range={apiRange} />
      )}
      {tab === 'grid' && <GridTab projectId={projectId} dashboard={dashboard} grid={grid} range={apiRange} />}
      {tab === 'yaml' && (
        <Suspense fallback={<Skeleton variant="rectangular" height={400} data-testid="dash-yaml-loading" />}>
          <DashYamlTab key={dashId} projectId={projectId} dashId={dashId} />
        </Suspense>
      )}
      {editingVariables && (
        <VariablesDialog
          projectId={projectId}
          dashboard={dashboard}
          range={range.apiParams}
          onClose={() => setEditingVariables(false)}
        />
      )}
      {naming === 'new' && (
        <NewDashboardDialog
          projectId={projectId}
          onClose={() => setNaming(null)}
          onCreated={(d) => (setNaming(null), open(d, false))}
        />
      )}
      {naming === 'edit' && (
        <NameDialog
          title="Edit dashboard"
          action="Update"
          initial={dashboard.name}
          initialTags={dashboard.tags}
          busy={rename.isPending}
          error={rename.error?.message}
          onClose={() => setNaming(null)}
          onSubmit={(name, tags) => rename.mutate({ dashId, name, tags }, { onSuccess: () => setNaming(null) })}
        />
      )}
    </Stack>
  );
}
