import { Box, Button, Card, CardContent, Skeleton, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { FixedDateRangePicker } from '../../components/date/DateRangePicker';
import { useLocalDateRange } from '../../components/date/useDateRange';
import { toAddress } from '../../lib/time/dateRange';
import { formatDateTimeFull } from '../../lib/format/dateTime';
import { formatDuration } from '@lantern/shared';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { paths } from '../../lib/routes/paths';
import { LabelValues } from './LabelValues';
import { LoadPctileChart } from './LoadPctileChart';
import { groupSpansQuery } from './query/defaultQueries';
import { RequestError } from './RequestError';
import { SpanBreadcrumbs } from './SpanBreadcrumbs';
import { EventPanels } from './span/EventPanels';
import { SpanDialog } from './span/SpanDialog';
import { SpanStatus } from './SpanStatus';
import { SpanSystemBar } from './trace/SpanSystemBar';
import { TraceTimeline } from './trace/TraceTimeline';
import { TraceToolbar } from './trace/TraceToolbar';
import { allCollapsed, initialCollapsed, searchSpans } from './trace/traceTree';
import { ancestorIds, colorTrace, eventsBySystem, findSpan } from './trace/traceTimeline';
import { useTrace } from './tracingApi';
import { usePageTitle } from '../../components/shell/usePageTitle';

function TraceSkeleton() {
  return (
    <Stack spacing={2} data-testid="trace-loading">
      <Skeleton variant="text" width="40%" height={48} />
      <Skeleton variant="rectangular" height={60} />
      <Skeleton variant="rectangular" height={300} />
    </Stack>
  );
}

const exploreTraceQuery = (traceId: string) =>
  `where .trace_id = ${JSON.stringify(traceId)} | group by .group_id | .count | .error_count | {p50,p90,p99,sum}(.duration)`;

/** Spec tracing §2 'Trace page (TraceShow)'. */
export function TracePage() {
  const projectId = useProjectIdParam();
  const traceId = useParams().traceId ?? '';
  const { data, error, isPending } = useTrace(projectId, traceId);

  usePageTitle(data ? `View trace ${data.root.displayName}` : 'View trace');

  if (error) return <RequestError error={error} />;
  if (isPending || projectId === undefined) return <TraceSkeleton />;
  return <TraceView projectId={projectId} traceId={data.trace.id} root={data.root} />;
}

/** The collapsed set with the path to `id` opened, or the same set when nothing on it was collapsed. */
function reveal(collapsed: ReadonlySet<string>, root: Span, id: string | null): ReadonlySet<string> {
  if (id === null) return collapsed;
  const path = ancestorIds(root, id);
  return path.some((p) => collapsed.has(p)) ? new Set([...collapsed].filter((p) => !path.includes(p))) : collapsed;
}

function TraceView({ projectId, traceId, root }: { projectId: number; traceId: string; root: Span }) {
  const anchor = new Date(root.time).getTime();
  const dateRange = useLocalDateRange(anchor);
  // The trace's range goes with its links: without it they opened on the last hour, where an
  // older trace has no spans ('Explore trace' listed 0 groups).
  const timeParams = useMemo(() => toAddress(dateRange.range), [dateRange.range]);
  const colors = useMemo(() => colorTrace(root), [root]);
  const events = useMemo(() => eventsBySystem(root), [root]);
  const [tab, setTab] = useState('trace');
  // The open span card is in the address (`?span=<id>`), so the page can be shared showing it.
  const [address, setAddress] = useSearchParams();
  const activeId = address.get('span');
  const active = useMemo(() => (activeId ? (findSpan(root, activeId) ?? null) : null), [root, activeId]);
  // Opened by 'View trace' on a span or a log (`?focus=<span id>`, the log's span): that span is
  // where the reader was, so it is revealed, tinted and scrolled to until a search takes the focus.
  const linkedId = address.get('focus');
  // A big trace opens collapsed below its first levels; a shared span's path is open.
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() =>
    reveal(reveal(initialCollapsed(root), root, activeId), root, linkedId),
  );
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const matchIds = useMemo(() => searchSpans(root, deferredSearch), [root, deferredSearch]);
  const matches = useMemo(() => new Set(matchIds), [matchIds]);
  const [matchIndex, setMatchIndex] = useState(0);
  const focusId =
    matchIds.length > 0
      ? matchIds[Math.min(matchIndex, matchIds.length - 1)]
      : deferredSearch.trim() === '' && linkedId !== null
        ? linkedId
        : undefined;
  const groupQuery = groupSpansQuery(root.groupId, root.system);

  const toggle = useCallback(
    (id: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  // The focused match is shown: its collapsed ancestors open when the focus moves (while rendering).
  const [shownFocus, setShownFocus] = useState<readonly [Span, string | undefined]>([root, undefined]);
  if (shownFocus[0] !== root || shownFocus[1] !== focusId) {
    setShownFocus([root, focusId]);
    if (focusId !== undefined) setCollapsed((prev) => reveal(prev, root, focusId));
  }
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setMatchIndex(0);
  }, []);
  const step = useCallback(
    (delta: 1 | -1) => setMatchIndex((i) => (i + delta + matchIds.length) % Math.max(1, matchIds.length)),
    [matchIds.length],
  );
  const openSpan = useCallback(
    (id: string | null) =>
      setAddress(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id === null) next.delete('span');
          else next.set('span', id);
          return next;
        },
        { replace: true },
      ),
    [setAddress],
  );
  // Selecting a span reveals it: its collapsed ancestors open.
  const select = useCallback(
    (span: Span) => {
      setCollapsed((prev) => reveal(prev, root, span.id));
      openSpan(span.id);
    },
    [root, openSpan],
  );

  return (
    <Stack spacing={2} data-testid="trace-page">
      <SpanBreadcrumbs
        span={root}
        nameMax={60}
        testId="trace-breadcrumbs"
        right={<FixedDateRangePicker state={dateRange} anchor={anchor} />}
      >
        <Typography color="text.primary" data-testid="trace-id">
          {traceId}
        </Typography>
      </SpanBreadcrumbs>

      <Box data-testid="span-header">
        <Typography variant="h5" component="h1" sx={{ wordBreak: 'break-word', mb: 2 }} data-testid="span-header-title">
          {root.displayName}
        </Typography>
        <LabelValues
          items={[
            { label: 'Kind', value: root.kind, testId: 'header-kind' },
            {
              label: 'Status',
              value: <SpanStatus code={root.statusCode} message={root.statusMessage} />,
              testId: 'header-status',
            },
            { label: 'Time', value: formatDateTimeFull(new Date(root.time)), testId: 'header-time' },
            { label: 'Duration', value: formatDuration(root.duration), testId: 'header-duration' },
          ]}
        />
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button
            size="small"
            variant="contained"
            component={RouterLink}
            to={paths.spanItems(projectId, { system: root.system, query: groupQuery, ...timeParams })}
            data-testid="view-group"
          >
            View group
          </Button>
          <Button
            size="small"
            variant="outlined"
            component={RouterLink}
            to={paths.spanGroups(projectId, {
              system: 'spans:all',
              query: exploreTraceQuery(traceId),
              ...timeParams,
            })}
            data-testid="explore-trace"
          >
            Explore trace
          </Button>
        </Stack>
      </Box>

      {root.groupId && root.groupId !== '0' && (
        <Card variant="outlined">
          <CardContent>
            <LoadPctileChart
              projectId={projectId}
              params={{ ...dateRange.apiParams, system: [root.system], group_id: root.groupId }}
            />
          </CardContent>
        </Card>
      )}
      <SpanSystemBar systems={colors.systems} />

      <Card variant="outlined">
        <Tabs value={tab} onChange={(_e, v: string) => setTab(v)} sx={{ bgcolor: '#E1F5FE' }} data-testid="trace-tabs">
          <Tab value="trace" label="Trace" data-testid="trace-tab-trace" />
          {[...events.entries()].map(([system, list]) => (
            <Tab key={system} value={system} label={`${system} (${list.length})`} data-testid="trace-tab-events" />
          ))}
        </Tabs>
        <CardContent>
          {tab === 'trace' ? (
            <>
              <TraceToolbar
                onExpandAll={() => setCollapsed(new Set())}
                onCollapseAll={() => setCollapsed(allCollapsed(root))}
                search={search}
                onSearch={onSearch}
                matchCount={matchIds.length}
                matchIndex={Math.min(matchIndex, Math.max(0, matchIds.length - 1))}
                onStep={step}
              />
              <TraceTimeline
                root={root}
                colors={colors}
                activeId={active?.id}
                collapsed={collapsed}
                onToggle={toggle}
                onSelect={select}
                matches={matches}
                focusId={focusId}
              />
            </>
          ) : (
            <EventPanels events={(events.get(tab) ?? []).map((e) => e.event)} />
          )}
        </CardContent>
      </Card>
      <SpanDialog span={active} onClose={() => openSpan(null)} onTracePage />
    </Stack>
  );
}
