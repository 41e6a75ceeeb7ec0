import { Box, Card, CardContent, Skeleton, Stack, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import { useMemo } from 'react';
import { Link as RouterLink, Navigate, useLocation, useParams } from 'react-router-dom';
import { DateRangePicker } from '../../components/date/DateRangePicker';
import { useDateRange } from '../../components/date/useDateRange';
import { NotFoundPage } from '../../app/NotFoundPage';
import { formatNum, formatPercents } from '@lantern/shared';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { paths } from '../../lib/routes/paths';
import { useAddressState } from '../../lib/url/useAddressState';
import { NoTracingDataCard } from '../help/TracingHelpCard';
import { useProject } from '../projects/projectsApi';
import { SystemPicker } from '../tracing/system/SystemPicker';
import { systemItems } from '../tracing/system/systemItems';
import { isSpanSystem } from '../tracing/query/defaultQueries';
import { useSystems, type RangeQuery } from '../tracing/tracingApi';
import { errorSystemTabs } from './errorSystemTabs';
import { OverviewGroups } from './OverviewGroups';
import { QuickSpanFilter } from './QuickSpanFilter';
import { quickMetrics } from './quickMetrics';
import { ServiceGraphView } from './serviceGraph/ServiceGraphView';
import { usePageTitle } from '../../components/shell/usePageTitle';

function QuickMetricCards({ systems }: { systems: Parameters<typeof quickMetrics>[0] | undefined }) {
  if (!systems) {
    return (
      <Stack direction="row" spacing={2}>
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} variant="rectangular" width={120} height={80} />
        ))}
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="quick-metrics">
      {quickMetrics(systems).map((m) => (
        <Card
          key={m.key}
          variant="outlined"
          sx={{ minWidth: 120, borderBottom: `6px solid ${m.color}` }}
          data-testid="quick-metric"
          data-key={m.key}
        >
          <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
            <Tooltip title={m.tooltip}>
              <Typography variant="caption" sx={{ textTransform: 'uppercase', color: 'text.secondary' }}>
                {m.title}
              </Typography>
            </Tooltip>
            <Typography variant="h5" data-testid="quick-metric-value">
              {m.isPercent ? formatPercents(m.value) : formatNum(m.value)}{' '}
              <Typography component="span" variant="caption">
                {m.suffix}
              </Typography>
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

type OverviewTab = { value: string; label: string; to: string };

/**
 * The Overview's child views (spec §2 route table): systems, slowest-groups, groups/{system} and
 * attributes/{attr}. Any other path under /overview/{projectId} is not a page.
 */
const isOverviewView = (view: string) =>
  view === 'systems' || view === 'slowest-groups' || view === 'service-graph' || /^(groups|attributes)\/.+$/.test(view);

/** The child view's path, decoded (a system or attribute name may hold a '/'); a trailing '/' is dropped. */
function viewOf(rest: string): string {
  const path = rest.replace(/\/$/, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // a stray '%': compared as written
  }
}

/** /overview/{projectId}/...: the Overview on one of its views, else the not-found screen (spec §2). */
export function OverviewPage() {
  const projectId = useProjectIdParam();
  const location = useLocation();
  const rest = useParams()['*'] ?? '';
  const view = viewOf(rest);
  if (projectId === undefined) return <NotFoundPage />;
  if (rest === '') return <Navigate to={`${paths.overviewSystems(projectId)}${location.search}`} replace />;
  if (!isOverviewView(view)) return <NotFoundPage />;
  return <Overview projectId={projectId} view={view} />;
}

/** Spec tracing §2 Overview: the toolbar, quick metrics and the group lists by tab. */
function Overview({ projectId, view }: { projectId: number; view: string }) {
  const location = useLocation();
  const dateRange = useDateRange();
  const address = useAddressState();
  const project = useProject(projectId);
  const systemsKey = address.params.getAll('system').join('\n');
  const chosen = useMemo(() => (systemsKey ? systemsKey.split('\n') : []), [systemsKey]);
  const query = address.params.get('query') ?? '';
  const systemsQuery = useSystems(projectId, { ...dateRange.apiParams, query: query || undefined });

  usePageTitle('Overview');
  if (systemsQuery.data?.hasNoData) return <NoTracingDataCard projectId={projectId} dateRange={dateRange} />;

  const spanSystems = (systemsQuery.data?.systems ?? []).filter((s) => isSpanSystem(s.system));
  // Before the picker writes its default into the address (once the systems came, a navigation and
  // a render later), the groups are asked for with that default ('all', whatever the systems are):
  // the call leaves beside the systems call, not after it.
  const shown = chosen.length
    ? chosen
    : systemItems(spanSystems)
        .slice(0, 1)
        .map((i) => i.system);
  const range: RangeQuery = {
    ...dateRange.apiParams,
    system: shown.length ? shown : undefined,
    query: query || undefined,
  };
  const keep = location.search;
  const errorTabs = errorSystemTabs(systemsQuery.data?.systems ?? [], dateRange.range.duration);
  const tabs: OverviewTab[] = [
    { value: 'systems', label: 'Systems', to: `${paths.overviewSystems(projectId)}${keep}` },
    ...errorTabs.map((t) => ({
      value: `groups/${t.system}`,
      label: t.label,
      to: `${paths.overviewSystem(projectId, t.system)}${keep}`,
    })),
    ...chosen
      .filter((s) => !s.endsWith('all') && !errorTabs.some((t) => t.system === s))
      .map((s) => ({ value: `groups/${s}`, label: s, to: `${paths.overviewSystem(projectId, s)}${keep}` })),
    { value: 'slowest-groups', label: 'Slowest groups', to: `${paths.overviewSlowest(projectId)}${keep}` },
    { value: 'service-graph', label: 'Service graph', to: `${paths.overviewServiceGraph(projectId)}${keep}` },
    ...(project.data?.project.pinnedAttrs ?? []).map((a) => ({
      value: `attributes/${a}`,
      label: a,
      to: `${paths.overviewAttr(projectId, a)}${keep}`,
    })),
  ];
  const current = tabs.find((t) => view === t.value)?.value ?? false;

  return (
    <Stack spacing={2} data-testid="overview">
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, py: 1, borderRadius: 1, flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography variant="h6" component="h1" sx={{ fontSize: '1.1rem' }}>
          Overview
        </Typography>
        <SystemPicker
          systems={spanSystems}
          value={chosen}
          loading={systemsQuery.isPending}
          onChange={(s) => address.set({ system: s }, { replace: chosen.length === 0 })}
        />
        <QuickSpanFilter
          projectId={projectId}
          range={{ ...range, query: undefined }}
          label="env:"
          attr="deployment.environment"
          query={query}
          onQuery={(q) => address.set({ query: q })}
        />
        <QuickSpanFilter
          projectId={projectId}
          range={{ ...range, query: undefined }}
          label="service:"
          attr="service.name"
          query={query}
          onQuery={(q) => address.set({ query: q })}
        />
        <Box sx={{ flexGrow: 1 }} />
        <DateRangePicker state={dateRange} />
      </Stack>
      <Box sx={{ bgcolor: '#FAFAFA', p: 2, borderRadius: 1 }}>
        <QuickMetricCards systems={systemsQuery.data?.systems} />
      </Box>
      <Tabs value={current} variant="scrollable" data-testid="overview-tabs">
        {tabs.map((t) => (
          <Tab
            key={t.value}
            value={t.value}
            label={t.label}
            component={RouterLink}
            to={t.to}
            data-testid="overview-tab"
          />
        ))}
      </Tabs>
      {view === 'service-graph' ? (
        <ServiceGraphView projectId={projectId} dateRange={dateRange} />
      ) : (
        shown.length > 0 && (
          <OverviewGroups key={view} projectId={projectId} view={view} range={range} systems={shown} />
        )
      )}
    </Stack>
  );
}
