import ShowChartIcon from '@mui/icons-material/ShowChart';
import FilterAltIcon from '@mui/icons-material/FilterAlt';
import {
  Box,
  Button,
  IconButton,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  Tooltip,
  Typography,
} from '@mui/material';
import type { ColumnInfo, GroupRow, GroupStatsResponse } from '@lantern/shared';
import { Fragment, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Sparkline } from '../../../components/charts/Sparkline';
import { PALETTE } from '../../../components/charts/palette';
import { Pager, usePager } from '../../../components/Pager';
import { useSeen } from '../../../components/useSeen';
import { formatMetric, formatUnit } from '../../../lib/format/number';
import { paths } from '../../../lib/routes/paths';
import { truncate } from '../../../lib/text/truncate';
import { NewMonitorMenu } from '../NewMonitorMenu';
import { defaultGroupQuery, hasNoDuration, joinQuery, whereQuery } from '../query/defaultQueries';
import { useGroupStats, type RangeQuery } from '../tracingApi';
import { groupSpans, headerLabel, isErrorRate, plainColumns, plottableColumns, sortGroups } from './groupColumns';
import { ExpandSpansButton } from './ExpandSpansButton';
import { GroupChartDialog } from './GroupChartDialog';
import { SpansList } from './SpansTable';

/** Spec §9: 15 group rows per page. */
export const GROUPS_PER_PAGE = 15;

export interface GroupOrder {
  column: string;
  desc: boolean;
}

function RowSparklines({
  projectId,
  range,
  group,
  plotted,
  columns,
  preloaded,
}: {
  projectId: number;
  range: RangeQuery;
  group: GroupRow;
  plotted: string[];
  columns: ColumnInfo[];
  /** The row's series as the groups answer carried them (`stats`): no call of its own when they cover `plotted`. */
  preloaded?: GroupStatsResponse;
}) {
  const covered = preloaded && (Object.keys(preloaded).length === 0 || plotted.every((c) => c in preloaded));
  // A row below the fold asks for its series when it is scrolled to (a page has 15 rows of 5).
  const first = useRef<HTMLTableCellElement>(null);
  const seen = useSeen(first);
  const fetched = useGroupStats(
    projectId,
    seen && !covered ? { ...range, query: joinQuery([range.query, group._query]), column: plotted } : undefined,
  );
  // A column plotted later: the carried lines stay until the row's own answer comes.
  const data = covered ? preloaded : (fetched.data ?? preloaded);
  const time = (data?._time ?? []) as string[];
  return (
    <>
      {columns.map((c, i) => {
        const values = plotted.includes(c.name) ? (data?.[c.name] as (number | null)[] | undefined) : undefined;
        return (
          <TableCell key={c.name} ref={i === 0 ? first : undefined} align="right" sx={{ whiteSpace: 'nowrap' }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
              {/* The line's room is kept while the series is on its way: the columns do not jump. */}
              {plotted.includes(c.name) && !data && <Box sx={{ width: 100, height: 30 }} />}
              {values && time.length > 0 && (
                <Sparkline
                  time={time}
                  values={values}
                  unit={c.unit}
                  color={PALETTE[plotted.indexOf(c.name) % PALETTE.length]}
                  gapsAsZero={isErrorRate(c.name)}
                />
              )}
              <span data-testid="group-value" data-column={c.name}>
                {formatMetric(group[c.name] as number | null | undefined, c.unit)}
              </span>
            </Stack>
          </TableCell>
        );
      })}
    </>
  );
}

/**
 * Groups with their metric columns (spec §2 Groups tab, reference §1.3.9): 15 per page, always
 * sorted (the whole list), sparklines for plotted columns, a single expanded row showing its spans,
 * and per-row links to the group's spans, its system and the monitor menu.
 */
export function GroupsTable({
  projectId,
  range,
  systems,
  groups,
  columns,
  plotted,
  order,
  onOrder,
  showSystem,
  stats,
}: {
  projectId: number;
  range: RangeQuery;
  systems: string[];
  groups: GroupRow[];
  columns: ColumnInfo[];
  plotted: string[];
  order: GroupOrder;
  onOrder: (o: GroupOrder) => void;
  showSystem?: boolean;
  /** Series of some rows by `_id`, carried by the groups answer (GroupsResponse `stats`). */
  stats?: Record<string, GroupStatsResponse>;
}) {
  const sorted = useMemo(() => sortGroups(groups, order.column, order.desc), [groups, order]);
  const pager = usePager(sorted.length, GROUPS_PER_PAGE);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [charted, setCharted] = useState<GroupRow | null>(null);
  const plain = plainColumns(columns);
  const nums = plottableColumns(columns);
  // Grouped by `.system`, the group name already says the system: no second column repeating it.
  const hasSystem = showSystem && !columns.some((c) => c.name === '.system');
  const sortHeader = (name: string, label: string, align: 'left' | 'right' = 'right') => (
    <TableCell key={name} align={align} sx={{ whiteSpace: 'nowrap' }}>
      <TableSortLabel
        active={order.column === name}
        direction={order.column === name && !order.desc ? 'asc' : 'desc'}
        onClick={() => onOrder({ column: name, desc: order.column === name ? !order.desc : true })}
        data-testid="group-sort"
        data-column={name}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );

  return (
    <Box data-testid="groups-table">
      <Table size="small">
        <TableHead>
          <TableRow>
            {sortHeader('_name', 'Group name', 'left')}
            {plain.map((c) => sortHeader(c.name, headerLabel(c.name), 'left'))}
            {hasSystem && <TableCell>System</TableCell>}
            {nums.map((c) => sortHeader(c.name, headerLabel(c.name)))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {sorted.slice(pager.start, pager.end).map((g) => {
            const { system, systems: spanSystems, query: spansQuery } = groupSpans(g, range.query, systems);
            const open = expanded === g._id;
            return (
              <Fragment key={g._id}>
                <TableRow
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => setExpanded(open ? null : g._id)}
                  data-testid="group-row"
                  data-group-id={g._id}
                >
                  <TableCell
                    sx={{ overflowWrap: 'break-word', minWidth: 160 }}
                    data-testid="group-name"
                    title={g._name}
                  >
                    {truncate(g._name || '<empty>', 120)}
                  </TableCell>
                  {plain.map((c) => (
                    <TableCell key={c.name}>{formatUnit(g[c.name], c.unit)}</TableCell>
                  ))}
                  {hasSystem && (
                    <TableCell onClick={(e) => e.stopPropagation()}>
                      {system && (
                        <Link
                          component={RouterLink}
                          to={paths.spanGroups(projectId, {
                            system,
                            query: joinQuery([
                              defaultGroupQuery([system]),
                              range.query ? whereQuery(range.query) : undefined,
                            ]),
                          })}
                          underline="hover"
                          data-testid="group-system"
                        >
                          {truncate(system, 32)}
                        </Link>
                      )}
                    </TableCell>
                  )}
                  <RowSparklines
                    projectId={projectId}
                    range={range}
                    group={g}
                    plotted={plotted}
                    columns={nums}
                    preloaded={stats?.[g._id]}
                  />
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                    <Tooltip title="View chart">
                      <IconButton size="small" onClick={() => setCharted(g)} data-testid="group-chart-open">
                        <ShowChartIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <NewMonitorMenu
                      projectId={projectId}
                      name={`${system ?? systems.join(',')} > ${g._name}`}
                      where={g._query}
                      isEvent={hasNoDuration(system)}
                    />
                    <Tooltip title="Filter spans for this group">
                      <IconButton
                        size="small"
                        component={RouterLink}
                        to={paths.spanItems(projectId, { system: system ?? systems, query: spansQuery })}
                        data-testid="group-spans-link"
                      >
                        <FilterAltIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <ExpandSpansButton
                      open={open}
                      onToggle={() => setExpanded(open ? null : g._id)}
                      testId="group-expand"
                    />
                  </TableCell>
                </TableRow>
                {open && (
                  <TableRow>
                    <TableCell colSpan={plain.length + nums.length + (hasSystem ? 3 : 2)} sx={{ bgcolor: '#FAFAFA' }}>
                      <SpansList projectId={projectId} range={{ ...range, system: spanSystems, query: spansQuery }} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
      <Pager pager={pager} testId="groups-pager" />
      {charted && (
        <GroupChartDialog projectId={projectId} group={charted} range={range} onClose={() => setCharted(null)} />
      )}
    </Box>
  );
}

/** Spec §8 empty state of the groups list, with the Help link. */
export function NoGroups({ projectId }: { projectId: number }) {
  return (
    <Box sx={{ textAlign: 'center', py: 6 }} data-testid="groups-empty">
      <Typography sx={{ mb: 2 }}>There are no matching groups. Try to change filters.</Typography>
      <Button variant="outlined" size="small" component={RouterLink} to={paths.tracingHelp(projectId)}>
        Help
      </Button>
    </Box>
  );
}
