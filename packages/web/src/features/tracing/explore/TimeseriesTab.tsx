import {
  Box,
  Card,
  Checkbox,
  Grid,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { MetricChart } from '../../../components/charts/MetricChart';
import { PALETTE } from '../../../components/charts/palette';
import { Pager, usePager } from '../../../components/Pager';
import { formatMetric } from '../../../lib/format/number';
import { groupSpans, headerLabel } from './groupColumns';
import { SpansList } from './SpansTable';
import { ExpandSpansButton } from './ExpandSpansButton';
import { avgColumn, sortedTimeseriesGroups, timeseriesOrder, valuesOf } from './timeseriesOrder';
import type { ExploreState } from './useExploreState';
import { InvalidQuery } from './GroupsTab';
import { ApiError } from '../../../lib/api/apiClient';
import { useTimeseries, type RangeQuery } from '../tracingApi';

/** Spec §9: 9 groups per page; the pager hides at 9 or fewer. */
const PER_PAGE = 9;

/**
 * Spec §2 Timeseries tab: one chart per numeric column (every one the query asks for), then the
 * groups table (selection picks plotted groups; hovering a row emphasises its lines; a row expands,
 * one at a time, into its spans like a row of the Groups tab). Empty
 * buckets of durations and error rates are gaps in the charts and left out of the averages.
 * The table is sorted by a column's header, the whole list before paging; the order lives in the
 * address as `sort_by`/`sort_desc` (spec §4), by default the first metric's average descending.
 */
export function TimeseriesTab({
  projectId,
  range,
  state,
  onQueryInfo,
}: {
  projectId: number;
  range: RangeQuery;
  state: ExploreState;
  onQueryInfo: (p: QueryPart[] | undefined) => void;
}) {
  const { data, isPending, error } = useTimeseries(projectId, range);
  useEffect(() => onQueryInfo(data?.query.parts), [data, onQueryInfo]);
  // Memoised so that re-renders (a hovered row) do not rebuild the charts.
  const metrics = useMemo(() => (data?.columns ?? []).filter((c) => c.isNum && !c.isGroup), [data]);
  const metricNames = useMemo(() => metrics.map((m) => m.name), [metrics]);
  const order = useMemo(
    () => timeseriesOrder(state.sortBy, state.sortDesc, metricNames),
    [state.sortBy, state.sortDesc, metricNames],
  );
  const groups = useMemo(
    () => sortedTimeseriesGroups(data?.groups ?? [], metricNames, order),
    [data, metricNames, order],
  );
  const pager = usePager(groups.length, PER_PAGE);
  const onPage = useMemo(() => groups.slice(pager.start, pager.end), [groups, pager.start, pager.end]);
  const [unselected, setUnselected] = useState<Set<string>>(new Set());
  /** The group whose row the pointer is on: its line is emphasised in every chart. */
  const [hovered, setHovered] = useState<(typeof groups)[number] | undefined>();
  const [expanded, setExpanded] = useState<string | null>(null);
  const plotted = useMemo(() => onPage.filter((g) => !unselected.has(g._id)), [onPage, unselected]);
  const time = useMemo(() => data?.time ?? [], [data]);
  const charts = useMemo(
    () =>
      metrics.map((m) => ({
        column: m,
        series: plotted.map((g) => ({
          name: g._name || m.name,
          unit: m.unit,
          values: valuesOf(g, m.name),
          color: PALETTE[onPage.indexOf(g) % PALETTE.length],
        })),
      })),
    [metrics, plotted, onPage],
  );

  if (error instanceof ApiError && error.code === 'invalid_query') return <InvalidQuery error={error} />;
  // The same column flips the direction; another starts descending (like the Groups tab).
  const sortHeader = (column: string, label: string, align: 'left' | 'right') => (
    <TableCell
      key={column}
      align={align}
      sx={{ whiteSpace: 'nowrap' }}
      sortDirection={order?.column === column ? (order.desc ? 'desc' : 'asc') : false}
      data-testid="timeseries-header"
      data-column={column}
    >
      <TableSortLabel
        active={order?.column === column}
        direction={order?.column === column && !order.desc ? 'asc' : 'desc'}
        onClick={() => {
          state.setSort(column, order?.column === column ? !order.desc : true);
          pager.setPage(1);
        }}
        data-testid="timeseries-sort"
        data-column={column}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
  return (
    <Card variant="outlined" data-testid="timeseries-card">
      <Stack direction="row" sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, minHeight: 40 }}>
        <Typography variant="h6" sx={{ fontSize: '1.1rem' }}>
          Timeseries
        </Typography>
      </Stack>
      <Box sx={{ p: 2 }}>
        {isPending ? (
          <Grid container spacing={2}>
            {[0, 1, 2, 3].map((i) => (
              <Grid key={i} size={6}>
                <Skeleton variant="rectangular" height={200} />
              </Grid>
            ))}
          </Grid>
        ) : metrics.length === 0 || groups.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }} data-testid="timeseries-empty">
            There are no metrics
          </Typography>
        ) : (
          <>
            <Grid container spacing={2}>
              {charts.map((c) => (
                <Grid key={c.column.name} size={metrics.length > 1 ? 6 : 12} data-testid="timeseries-chart">
                  <Typography variant="subtitle2">{c.column.name}</Typography>
                  <MetricChart
                    time={time}
                    series={c.series}
                    legend={false}
                    highlight={hovered && (hovered._name || c.column.name)}
                  />
                </Grid>
              ))}
            </Grid>
            <Table size="small" sx={{ mt: 2 }} data-testid="timeseries-groups">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  {sortHeader('_name', 'Group', 'left')}
                  {metrics.map((m) => sortHeader(avgColumn(m.name), `avg ${headerLabel(m.name)}`, 'right'))}
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {onPage.map((g, i) => {
                  const open = expanded === g._id;
                  const spans = groupSpans(g, range.query, range.system ?? []);
                  const toggle = () => setExpanded(open ? null : g._id);
                  return (
                    <Fragment key={g._id}>
                      <TableRow
                        hover
                        sx={{ cursor: 'pointer' }}
                        onClick={toggle}
                        onMouseEnter={() => setHovered(g)}
                        onMouseLeave={() => setHovered(undefined)}
                        data-testid="timeseries-group-row"
                        data-group-id={g._id}
                      >
                        <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
                          <Checkbox
                            size="small"
                            checked={!unselected.has(g._id)}
                            sx={{
                              color: PALETTE[i % PALETTE.length],
                              '&.Mui-checked': { color: PALETTE[i % PALETTE.length] },
                            }}
                            onChange={() =>
                              setUnselected((prev) => {
                                const next = new Set(prev);
                                if (!next.delete(g._id)) next.add(g._id);
                                return next;
                              })
                            }
                          />
                        </TableCell>
                        <TableCell data-testid="timeseries-group-name">{g._name}</TableCell>
                        {metrics.map((m) => {
                          const avg = g[avgColumn(m.name)];
                          return (
                            <TableCell
                              key={m.name}
                              align="right"
                              data-testid="timeseries-avg"
                              data-column={m.name}
                              data-value={avg ?? ''}
                            >
                              {formatMetric(typeof avg === 'number' ? avg : null, m.unit)}
                            </TableCell>
                          );
                        })}
                        <TableCell align="right" padding="checkbox" onClick={(e) => e.stopPropagation()}>
                          <ExpandSpansButton open={open} onToggle={toggle} testId="timeseries-group-expand" />
                        </TableCell>
                      </TableRow>
                      {open && (
                        <TableRow>
                          <TableCell colSpan={metrics.length + 3} sx={{ bgcolor: '#FAFAFA' }}>
                            <SpansList
                              projectId={projectId}
                              range={{ ...range, system: spans.systems, query: spans.query }}
                            />
                          </TableCell>
                        </TableRow>
                      )}
                    </Fragment>
                  );
                })}
              </TableBody>
            </Table>
            {groups.length > PER_PAGE && <Pager pager={pager} testId="timeseries-pager" />}
          </>
        )}
      </Box>
    </Card>
  );
}
