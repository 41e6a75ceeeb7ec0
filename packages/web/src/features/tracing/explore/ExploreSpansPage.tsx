import { Box, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import { useDateRange } from '../../../components/date/useDateRange';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { paths } from '../../../lib/routes/paths';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { NoTracingDataCard } from '../../help/TracingHelpCard';
import { defaultGroupQuery, hasNoDuration } from '../query/defaultQueries';
import { SpanQueryBuilder } from '../query/SpanQueryBuilder';
import { SystemGroupPicker, SystemPicker } from '../system/SystemPicker';
import { KIND_ALL, kindOf } from '../system/systemItems';
import { useGroups, useSystems } from '../tracingApi';
import { GroupsCard } from './GroupsTab';
import { firstAggregateOf } from './groupColumns';
import { GROUPS_PER_PAGE } from './GroupsTable';
import { SavedViews } from './SavedViews';
import { SpansTab } from './SpansTab';
import { TimeseriesTab } from './TimeseriesTab';
import { useExploreState, type ExploreState } from './useExploreState';
import { WhatChangedCard } from './whatChanged/WhatChangedCard';
import { usePageTitle } from '../../../components/shell/usePageTitle';

type TabKey = 'groups' | 'spans' | 'timeseries';
const ROUTE_OF: Record<TabKey, string> = { groups: 'SpanGroupList', spans: 'SpanList', timeseries: 'SpanTimeseries' };

// A Map, not an object: a path such as 'constructor' must not find an inherited key.
const TAB_OF_PATH = new Map<string, TabKey>([
  ['', 'groups'],
  ['items', 'spans'],
  ['timeseries', 'timeseries'],
]);

/** The tab of the path under /spans/{projectId}; any other path is not a page (spec §2). */
function tabOf(rest: string): TabKey | undefined {
  return TAB_OF_PATH.get(rest.replace(/\/$/, ''));
}

/** /spans/{projectId}/...: Explore spans on one of its tabs, else the not-found screen (spec §2). */
export function ExploreSpansPage() {
  const projectId = useProjectIdParam();
  const tab = tabOf(useParams()['*'] ?? '');
  if (projectId === undefined || tab === undefined) return <NotFoundPage />;
  return <ExploreSpans projectId={projectId} tab={tab} />;
}

/** Spec §2 Explore spans: the title, toolbar, tabs Groups / Spans / Timeseries, saved views, the query builder. */
function ExploreSpans({ projectId, tab }: { projectId: number; tab: TabKey }) {
  const dateRange = useDateRange();
  const state = useExploreState();
  const systemsQuery = useSystems(projectId, dateRange.apiParams);
  // The server's reading of each query part (errors, disabled parts) from the tab on screen.
  const [serverParts, setServerParts] = useState<QueryPart[] | undefined>();

  usePageTitle('Explore spans');
  // A project without data in the range gets the getting-started card, as on the Overview
  // (reference frontend: Tracing shell → HelpCard or the toolbar and tabs).
  if (systemsQuery.data?.hasNoData) return <NoTracingDataCard projectId={projectId} dateRange={dateRange} />;

  const range = {
    ...dateRange.apiParams,
    system: state.systems.length ? state.systems : undefined,
    query: state.query || undefined,
  };
  const ready = state.systems.length > 0 && state.hasQuery;
  const isEvents = hasNoDuration(state.systems[0]);
  // Tab links keep only system, query and the time params (spec §2).
  const keep = new URLSearchParams();
  for (const key of ['system', 'query', 'time_gte', 'time_dur'])
    for (const v of state.address.params.getAll(key)) keep.append(key, v);
  const tabLink = (path: string) => `${path}${keep.toString() ? `?${keep}` : ''}`;
  // Changing systems on the Spans tab resets the order to the kind's default, time (events) or
  // duration (spans), descending (spec §4), and every list starts at page 1: written with the
  // systems, so Back to an entry finds the order and page it had (an effect resetting the order
  // once the systems had changed also rewrote the entry Back returned to).
  const chooseSystems = (system: string[], query?: string) =>
    state.address.set({
      system,
      ...(query === undefined ? {} : { query }),
      page: null,
      ...(tab === 'spans' ? { sort_by: null, sort_desc: null } : {}),
    });

  return (
    <Stack spacing={2} data-testid="explore-spans">
      <Box sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography
            variant="h6"
            component="h1"
            sx={{ fontSize: '1.1rem', fontWeight: 500, whiteSpace: 'nowrap' }}
            data-testid="explore-title"
          >
            Explore spans
          </Typography>
          <SystemPicker
            systems={systemsQuery.data?.systems}
            value={state.systems}
            loading={systemsQuery.isPending}
            onChange={chooseSystems}
            kind={state.systems.length ? kindOf(state.systems[0]) : undefined}
          />
          <SystemGroupPicker
            systems={systemsQuery.data?.systems}
            active={state.systems}
            onChoose={(kind) => chooseSystems([KIND_ALL[kind]], defaultGroupQuery([KIND_ALL[kind]], state.query))}
          />
          <Box sx={{ flexGrow: 1 }} />
          <DateRangePicker state={dateRange} />
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', mt: 1 }}>
          <Tabs value={tab} sx={{ flexGrow: 1, minHeight: 40, '& .MuiTab-root': { minHeight: 40 } }}>
            <Tab
              value="groups"
              label="Groups"
              component={RouterLink}
              to={tabLink(paths.spanGroups(projectId))}
              data-testid="tab-groups"
            />
            <Tab
              value="spans"
              label="Spans"
              component={RouterLink}
              to={tabLink(paths.spanItems(projectId))}
              data-testid="tab-spans"
            />
            <Tab
              value="timeseries"
              label="Timeseries"
              component={RouterLink}
              to={tabLink(paths.spanTimeseries(projectId))}
              data-testid="tab-timeseries"
            />
          </Tabs>
          <SavedViews projectId={projectId} route={ROUTE_OF[tab]} query={state.address.params} />
        </Stack>
      </Box>
      <SpanQueryBuilder
        ctx={{ projectId, range, query: state.query, setQuery: state.setQuery }}
        serverParts={serverParts}
        isEvents={isEvents}
        canAggregate={tab === 'groups'}
        onSystem={(s) => chooseSystems([s])}
        onReset={() => state.setQuery(defaultGroupQuery(state.systems))}
      />
      {ready && tab === 'groups' && (
        <GroupsTabView projectId={projectId} range={range} state={state} onQueryInfo={setServerParts} />
      )}
      {ready && tab === 'spans' && (
        <SpansTab projectId={projectId} range={range} state={state} onQueryInfo={setServerParts} />
      )}
      {ready && tab === 'timeseries' && !isEvents && (
        <WhatChangedCard projectId={projectId} range={range} state={state} />
      )}
      {ready && tab === 'timeseries' && (
        <TimeseriesTab projectId={projectId} range={range} state={state} onQueryInfo={setServerParts} />
      )}
    </Stack>
  );
}

function GroupsTabView({
  projectId,
  range,
  state,
  onQueryInfo,
}: {
  projectId: number;
  range: { time_gte: string; time_lt: string; system?: string[]; query?: string };
  state: ExploreState;
  onQueryInfo: (p: QueryPart[] | undefined) => void;
}) {
  // The first page's sparklines of the column plotted by default come with the groups (as on the
  // Overview): one call instead of one more a row after it. Not the plotted columns of the address:
  // plotting another column asks per row (GroupsTable), without asking for the groups again.
  const carried = useMemo(() => firstAggregateOf(range.query ?? ''), [range.query]);
  const { data, isFetching, error } = useGroups(projectId, {
    ...range,
    limit: 1000,
    ...(carried.length ? { stats_column: carried, stats_rows: GROUPS_PER_PAGE } : {}),
  });
  useEffect(() => onQueryInfo(data?.query.parts), [data, onQueryInfo]);
  const order = {
    column: state.sortBy ?? data?.order.column ?? '.count_per_min',
    desc: state.sortBy ? state.sortDesc : (data?.order.desc ?? true),
  };
  return (
    <GroupsCard
      title="Groups"
      projectId={projectId}
      range={range}
      systems={state.systems}
      result={data}
      loading={isFetching}
      error={error}
      plotted={state.columns}
      onPlotted={state.setColumns}
      order={order}
      onOrder={(o) => state.setSort(o.column, o.desc)}
      showSystem={state.systems.some((s) => s.endsWith('all'))}
    />
  );
}
