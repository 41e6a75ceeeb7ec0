import { Button } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../lib/routes/paths';
import { GroupsCard } from '../tracing/explore/GroupsTab';
import { GROUPS_PER_PAGE, type GroupOrder } from '../tracing/explore/GroupsTable';
import { defaultGroupQuery, exploreAttrQuery, hasNoDuration, joinQuery } from '../tracing/query/defaultQueries';
import { useGroups, type RangeQuery } from '../tracing/tracingApi';

/**
 * The Overview's group lists (spec §2): '<attr> overview' (Systems tab: the span system attribute;
 * pinned attribute tabs), '<system> groups', and 'Slowest groups' sorted by p50 duration.
 */
export function OverviewGroups({
  projectId,
  view,
  range,
  systems,
}: {
  projectId: number;
  view: string;
  range: RangeQuery;
  systems: string[];
}) {
  const where = range.query ?? '';
  let title: string;
  let query: string;
  let plotted: string[];
  let initialOrder: GroupOrder = { column: '.count_per_min', desc: true };
  let groupSystems = systems;
  if (view.startsWith('groups/')) {
    const system = view.slice('groups/'.length);
    groupSystems = [system];
    title = `${system} groups`;
    query = joinQuery([defaultGroupQuery([system]), where]);
    plotted = ['.count_per_min'];
  } else if (view === 'slowest-groups') {
    title = 'Slowest groups';
    query = joinQuery([defaultGroupQuery(systems), where]);
    plotted = ['.count_per_min', 'p50(.duration)'];
    initialOrder = { column: 'p50(.duration)', desc: true };
  } else {
    const attr = view.startsWith('attributes/') ? view.slice('attributes/'.length) : '.system';
    title = `${attr} overview`;
    query = joinQuery([exploreAttrQuery(attr, hasNoDuration(systems[0])), 'max(.duration)', where]);
    plotted = ['.count_per_min', '.error_rate', 'p50(.duration)', 'p90(.duration)', 'p99(.duration)'];
  }
  const [order, setOrder] = useState<GroupOrder>(initialOrder);
  const [columns, setColumns] = useState<string[]>(plotted);
  const params = { ...range, system: groupSystems, query };
  // The first page's sparklines come with the groups (the view's default columns, in the server's
  // order, which is the table's first order): one call instead of one more a row after it.
  const { data, isFetching, error } = useGroups(projectId, {
    ...params,
    limit: 1000,
    stats_column: plotted,
    stats_rows: GROUPS_PER_PAGE,
  });
  return (
    <GroupsCard
      key={view}
      title={title}
      projectId={projectId}
      range={params}
      systems={groupSystems}
      result={data}
      loading={isFetching}
      error={error}
      plotted={columns}
      onPlotted={setColumns}
      order={order}
      onOrder={setOrder}
      showSystem={view === 'slowest-groups'}
      action={
        <Button
          size="small"
          variant="contained"
          component={RouterLink}
          to={paths.spanGroups(projectId, {
            system: groupSystems,
            query,
            sort_by: order.column,
            sort_desc: order.desc ? '1' : '0',
          })}
          data-testid="view-groups"
        >
          View groups
        </Button>
      }
    />
  );
}
