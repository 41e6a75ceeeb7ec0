import SensorsIcon from '@mui/icons-material/Sensors';
import { Box, Button, Card, Stack, Typography } from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { useEffect, useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Pager } from '../../../components/Pager';
import { LoadPctileChart } from '../LoadPctileChart';
import { hasNoDuration, setWhere } from '../query/defaultQueries';
import { useSpans, type RangeQuery } from '../tracingApi';
import { SPANS_PER_PAGE, SpansTable, serverPager, type SpanOrder } from './SpansTable';
import type { ExploreState } from './useExploreState';
import { spanColumns } from './spanColumns';
import { countOf } from '../../../lib/format/countText';
import { ERRORS_SELECTION } from './whatChanged/selection';
import { whatChangedPath } from './whatChanged/whatChangedLink';
import { LiveSpans } from './live/LiveSpans';

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
  // The page is in the address (Back, reload and a shared link keep it); a new query, system or
  // order starts at page 1 (useExploreState), so page 5 of a query narrowed to 15 spans never asks
  // for rows 41-50 under a count of 15.
  const page = state.page;
  const setPage = (p: number) => state.setPage(p);
  const { data, isFetching } = useSpans(projectId, {
    ...range,
    // Live mode lists the tail instead (the request still reads the query's parts for the builder).
    ...(state.live ? { limit: 1 } : {}),
    sort_by: order.column,
    sort_desc: order.desc,
    page,
    ...(state.live ? {} : { limit: SPANS_PER_PAGE }),
  });
  // A new time range (or a link to a page past the end) can leave fewer pages than the one open:
  // go to the last one there is, in place of the entry.
  const count = data?.count;
  const last = count === undefined || isFetching ? page : serverPager(page, setPage, count).page;
  const { setPage: writePage } = state;
  useEffect(() => {
    if (last !== page) writePage(last, true);
  }, [last, page, writePage]);
  useEffect(() => onQueryInfo(data?.query.parts), [data, onQueryInfo]);
  // The query's group-by and aggregated attributes become columns of the list (spec §2).
  const columns = useMemo(() => spanColumns(state.query), [state.query]);
  const time = {
    time_gte: state.address.params.get('time_gte') ?? undefined,
    time_dur: state.address.params.get('time_dur') ?? undefined,
  };
  const showSystem = state.systems.some((s) => s.endsWith('all'));
  const onChip = (key: string, value: string) => state.setQuery(setWhere(state.query, key, '=', value));
  if (state.live)
    return (
      <LiveSpans
        projectId={projectId}
        systems={state.systems}
        query={state.query}
        showSystem={showSystem}
        eventsMode={events}
        columns={columns}
        onChip={onChip}
        onStop={() => state.setLive(false)}
      />
    );
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
          {!events && (
            <Button
              size="small"
              component={RouterLink}
              to={whatChangedPath(projectId, { systems: state.systems, query: state.query, time }, ERRORS_SELECTION)}
              sx={{ mr: 2 }}
              data-testid="what-changed-errors-link"
            >
              What changed in errors
            </Button>
          )}
          <Typography variant="body2" data-testid="spans-count">
            {/* The count is exact (the server counts every match), so never 'more than'. */}
            {countOf(data?.count ?? 0, 'span')}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            startIcon={<SensorsIcon />}
            onClick={() => state.setLive(true)}
            sx={{ ml: 2 }}
            data-testid="live-start"
          >
            Live
          </Button>
        </Stack>
        <SpansTable
          projectId={projectId}
          spans={data?.spans ?? []}
          loading={isFetching}
          order={order}
          onOrder={(o) => state.setSort(o.column, o.desc)}
          showSystem={showSystem}
          eventsMode={events}
          onChip={onChip}
          pageQuery={state.query}
          columns={columns}
        />
        <Pager pager={serverPager(page, setPage, data?.count ?? 0)} testId="spans-pager" />
      </Card>
    </Stack>
  );
}
