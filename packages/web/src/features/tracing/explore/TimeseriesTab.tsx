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
  Typography,
} from '@mui/material';
import type { QueryPart, TimeseriesGroup } from '@lantern/shared';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { MetricChart } from '../../../components/charts/MetricChart';
import { PALETTE } from '../../../components/charts/palette';
import { Pager, usePager } from '../../../components/Pager';
import { formatMetric } from '../../../lib/format/number';
import { groupSpans, headerLabel } from './groupColumns';
import { SpansList } from './SpansTable';
import { ExpandSpansButton } from './ExpandSpansButton';
import { averageOfPresent } from './seriesAverage';
import { InvalidQuery } from './GroupsTab';
import { ApiError } from '../../../lib/api/apiClient';
import { useTimeseries, type RangeQuery } from '../tracingApi';

/** Spec §9: 9 groups per page; the pager hides at 9 or fewer. */
const PER_PAGE = 9;

/** A group's values of one column: null where a bucket had nothing to measure (a gap). */
const valuesOf = (g: TimeseriesGroup, column: string): (number | null)[] => {
  const v = g[column];
  return Array.isArray(v) ? v : [];
};

/**
 * Spec §2 Timeseries tab: one chart per numeric column (every one the query asks for), then the
 * groups table (selection picks plotted groups; hovering a row emphasises its lines; a row expands,
 * one at a time, into its spans like a row of the Groups tab). Empty
 * buckets of durations and error rates are gaps in the charts and left out of the averages.
 */
export function TimeseriesTab({
  projectId,
  range,
  onQueryInfo,
}: {
  projectId: number;
  range: RangeQuery;
  onQueryInfo: (p: QueryPart[] | undefined) => void;
}) {
  const { data, isPending, error } = useTimeseries(projectId, range);
  useEffect(() => onQueryInfo(data?.query.parts), [data, onQueryInfo]);
  // Memoised so that re-renders (a hovered row) do not rebuild the charts.
  const metrics = useMemo(() => (data?.columns ?? []).filter((c) => c.isNum && !c.isGroup), [data]);
  const groups = useMemo(() => data?.groups ?? [], [data]);
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
                  <TableCell>Group</TableCell>
                  {metrics.map((m) => (
                    <TableCell key={m.name} align="right">
                      avg {headerLabel(m.name)}
                    </TableCell>
                  ))}
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
                        <TableCell>{g._name}</TableCell>
                        {metrics.map((m) => (
                          <TableCell key={m.name} align="right" data-testid="timeseries-avg" data-column={m.name}>
                            {formatMetric(averageOfPresent(valuesOf(g, m.name)), m.unit)}
                          </TableCell>
                        ))}
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
            {groups.length > PER_PAGE && <Pager pager={pager} />}
          </>
        )}
      </Box>
    </Card>
  );
}
