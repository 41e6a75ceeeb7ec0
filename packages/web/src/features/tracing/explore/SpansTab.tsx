import { Box, Card, Stack, Typography } from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Pager } from '../../../components/Pager';
import { LoadPctileChart } from '../LoadPctileChart';
import { hasNoDuration, setWhere } from '../query/defaultQueries';
import { useSpans, type RangeQuery } from '../tracingApi';
import { SPANS_PER_PAGE, SpansTable, serverPager, type SpanOrder } from './SpansTable';
import type { ExploreState } from './useExploreState';
import { spanColumns } from './spanColumns';
import { countOf } from '../../../lib/format/countText';

/** Spec §2 Spans tab: 'Spans' with a count, the load percentile chart, the span list and pager. */
export function SpansTab({
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
  const events = hasNoDuration(state.systems[0]);
  const order: SpanOrder = {
    column: state.sortBy === '.time' || state.sortBy === '.duration' ? state.sortBy : events ? '.time' : '.duration',
    desc: state.sortDesc,
  };
  // Changing systems resets the order: time for events, duration for spans (spec §4).
  const systemsKey = state.systems.join(',');
  const first = useRef(systemsKey);
  useEffect(() => {
    if (first.current === systemsKey) return;
    first.current = systemsKey;
    state.setSort(events ? '.time' : '.duration', true);
  }, [systemsKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // The page belongs to one list: another query, system or order starts at page 1. Kept across
  // them, page 5 of a query narrowed to 15 spans asked for rows 41-50 and showed 'no matching
  // spans' under a count of 15 and a pager at 11-15.
  const listKey = JSON.stringify([systemsKey, state.query, order.column, order.desc]);
  const [paged, setPaged] = useState({ key: listKey, page: 1 });
  const page = paged.key === listKey ? paged.page : 1;
  const setPage = (p: number) => setPaged({ key: listKey, page: p });
  const { data, isFetching } = useSpans(projectId, {
    ...range,
    sort_by: order.column,
    sort_desc: order.desc,
    page,
    limit: SPANS_PER_PAGE,
  });
  // A new time range can leave fewer pages than the one open: go to the last one there is.
  const count = data?.count;
  if (count !== undefined && !isFetching) {
    const last = serverPager(page, setPage, count).page;
    if (last !== page) setPaged({ key: listKey, page: last });
  }
  useEffect(() => onQueryInfo(data?.query.parts), [data, onQueryInfo]);
  // The query's group-by and aggregated attributes become columns of the list (spec §2).
  const columns = useMemo(() => spanColumns(state.query), [state.query]);
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <Box sx={{ p: 2 }}>
          <LoadPctileChart projectId={projectId} params={range} />
        </Box>
      </Card>
      <Card variant="outlined" data-testid="spans-card">
        <Stack direction="row" sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, minHeight: 48 }}>
          <Typography variant="h6" sx={{ fontSize: '1.1rem', flexGrow: 1 }}>
            Spans
          </Typography>
          <Typography variant="body2" data-testid="spans-count">
            {/* The count is exact (the server counts every match), so never 'more than'. */}
            {countOf(data?.count ?? 0, 'span')}
          </Typography>
        </Stack>
        <SpansTable
          projectId={projectId}
          spans={data?.spans ?? []}
          loading={isFetching}
          order={order}
          onOrder={(o) => state.setSort(o.column, o.desc)}
          showSystem={state.systems.some((s) => s.endsWith('all'))}
          eventsMode={events}
          onChip={(key, value) => state.setQuery(setWhere(state.query, key, '=', value))}
          pageQuery={state.query}
          columns={columns}
        />
        <Pager pager={serverPager(page, setPage, data?.count ?? 0)} testId="spans-pager" />
      </Card>
    </Stack>
  );
}
