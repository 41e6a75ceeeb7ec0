import { Box, Button, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { CodeBlock } from '../../../components/CodeBlock';
import { CopyButton } from '../../../components/CopyButton';
import { FixedDateRangePicker } from '../../../components/date/DateRangePicker';
import { useLocalDateRange } from '../../../components/date/useDateRange';
import { toAddress } from '../../../lib/time/dateRange';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { formatDuration } from '@lantern/shared';
import { paths } from '../../../lib/routes/paths';
import { truncate } from '../../../lib/text/truncate';
import { LabelValues } from '../LabelValues';
import { LoadPctileChart } from '../LoadPctileChart';
import { NewMonitorMenu } from '../NewMonitorMenu';
import { groupSpansQuery, hasNoDuration, whereQuery } from '../query/defaultQueries';
import { SpanBreadcrumbs } from '../SpanBreadcrumbs';
import { SpanStatus } from '../SpanStatus';
import { EventPanels } from './EventPanels';
import { LinkPanels } from './LinkPanels';
import { SpanAttrs } from './SpanAttrs';

type TabKey = 'attrs' | 'sql' | 'sqlPretty' | 'stacktrace' | 'events' | 'links' | 'percentiles';

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** SQL:pretty is a formatter of its own (~100 kB), loaded only when the tab is opened. */
function PrettySql({ sql }: { sql: string }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('sql-formatter').then(({ format }) => live && setText(format(sql))).catch(() => live && setText(sql));
    return () => {
      live = false;
    };
  }, [sql]);
  return <CodeBlock code={text ?? sql} testId="span-sql-pretty" />;
}

/**
 * The span card (spec tracing §2 and platform §2.7), used by the span dialog and SpanShow:
 * breadcrumbs and a date range around the span, the title and facts, View trace / View spans /
 * Monitor, and the tabs Attrs, SQL:raw, SQL:pretty, Stacktrace, Events (n), Links (n), Percentiles.
 */
export function SpanCard({
  span,
  onTracePage,
  onSpanList,
  pageQuery,
  onFilter,
}: {
  span: Span;
  /** Hide 'View trace' when already on this span's trace. */
  onTracePage?: boolean;
  /** Hide 'View spans' on the span list pages. */
  onSpanList?: boolean;
  /** The current page's query: its where parts narrow the percentiles. */
  pageQuery?: string;
  onFilter?: (key: string, value: string) => void;
}) {
  const projectId = span.projectId;
  const anchor = new Date(span.time).getTime();
  const dateRange = useLocalDateRange(anchor);
  const [tab, setTab] = useState<TabKey>('attrs');
  const sql = str(span.attrs['db.statement']) ?? str(span.attrs['db.query.text']);
  const events = span.events ?? [];
  const links = span.links ?? [];
  // Exceptions are recorded as events: their stack trace belongs to the span's card too.
  const stack =
    str(span.attrs['exception.stacktrace']) ?? events.map((e) => str(e.attrs['exception.stacktrace'])).find(Boolean);
  const isEvent = hasNoDuration(span.system) || Boolean(span.eventName);
  const isLog = span.eventName === 'log';
  const severity = str(span.attrs['log.severity']);
  // An event is titled by its name and its span's; a log sent without a span (no span name) by
  // what it says, not by a bare "log •".
  const title =
    span.system === 'db:redis' && sql
      ? truncate(sql, 1000)
      : span.eventName && span.name
        ? `${span.eventName} • ${span.name}`
        : span.displayName || span.eventName;
  const groupQuery = groupSpansQuery(span.groupId, span.system);
  // The trace opens at this span, or at the span a log or event was recorded in.
  const focusId = isEvent ? span.parentId : span.id;
  const traceLink =
    focusId && focusId !== '0'
      ? `${paths.trace(projectId, span.traceId)}?${new URLSearchParams({ focus: focusId }).toString()}`
      : paths.trace(projectId, span.traceId);
  const range = { ...dateRange.apiParams, system: [span.system] };

  // The SQL tab is there only for spans that carry a statement.
  const shownTab = tab === 'sql' && !sql ? 'attrs' : tab;

  return (
    <Stack spacing={2} data-testid="span-card">
      <SpanBreadcrumbs
        span={span}
        nameMax={40}
        testId="span-breadcrumbs"
        right={<FixedDateRangePicker state={dateRange} anchor={anchor} />}
      >
        {!span.standalone && span.traceId && (
          <Link component={RouterLink} to={traceLink} underline="hover" data-testid="span-trace-link">
            {span.traceId}
          </Link>
        )}
        <Link component={RouterLink} to={paths.span(projectId, span.traceId, span.id)} underline="hover">
          Span
        </Link>
      </SpanBreadcrumbs>

      <Box>
        <Typography variant="h5" component="h2" sx={{ wordBreak: 'break-word', mb: 2 }} data-testid="span-card-title">
          {title}
        </Typography>
        <LabelValues
          items={[
            ...(str(span.attrs['deployment.environment'])
              ? [{ label: 'Env', value: str(span.attrs['deployment.environment'])!, testId: 'header-env' }]
              : []),
            ...(str(span.attrs['service.name'])
              ? [{ label: 'Service', value: str(span.attrs['service.name'])!, testId: 'header-service' }]
              : []),
            // A log record has a severity, not a span's kind and status (it would read 'internal',
            // 'unset'); an event has a moment, not a duration (it would read '0').
            ...(isLog
              ? severity
                ? [{ label: 'Severity', value: severity, testId: 'header-severity' }]
                : []
              : [
                  { label: 'Kind', value: span.kind, testId: 'header-kind' },
                  {
                    label: 'Status',
                    value: <SpanStatus code={span.statusCode} message={span.statusMessage} />,
                    testId: 'header-status',
                  },
                ]),
            { label: 'Time', value: formatDateTimeFull(new Date(span.time)), testId: 'header-time' },
            ...(isEvent
              ? []
              : [{ label: 'Duration', value: formatDuration(span.duration), testId: 'header-duration' }]),
          ]}
        />
        {span.statusCode === 'error' && span.statusMessage && (
          <Typography color="error" variant="body2" sx={{ mt: 1 }}>
            {span.statusMessage}
          </Typography>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          {!span.standalone && !onTracePage && span.traceId && (
            <Button size="small" variant="contained" component={RouterLink} to={traceLink} data-testid="view-trace">
              View trace
            </Button>
          )}
          {!onSpanList && (
            <Button
              size="small"
              variant="outlined"
              component={RouterLink}
              to={paths.spanItems(projectId, { system: span.system, query: groupQuery, ...toAddress(dateRange.range) })}
              data-testid="view-spans"
            >
              View spans
            </Button>
          )}
          <NewMonitorMenu
            projectId={projectId}
            name={`${span.system} > ${span.displayName}`}
            where={`where .group_id = ${span.groupId}`}
            isEvent={isEvent}
            verbose
          />
          {span.traceId && (
            <CopyButton
              text={new URL(paths.span(projectId, span.traceId, span.id), window.location.origin).href}
              title="Copy the address of this span"
              label="Copy link"
              testId="span-copy-link"
            />
          )}
        </Stack>
      </Box>

      <Box>
        <Tabs
          value={shownTab}
          onChange={(_e, v: TabKey) => setTab(v)}
          sx={{ bgcolor: '#E1F5FE', borderRadius: 1 }}
          variant="scrollable"
        >
          <Tab value="attrs" label="Attrs" data-testid="span-tab-attrs" />
          {sql && <Tab value="sql" label="SQL:raw" data-testid="span-tab-sql" />}
          {sql && <Tab value="sqlPretty" label="SQL:pretty" data-testid="span-tab-sql-pretty" />}
          {stack && <Tab value="stacktrace" label="Stacktrace" data-testid="span-tab-stacktrace" />}
          {events.length > 0 && (
            <Tab value="events" label={`Events (${events.length})`} data-testid="span-tab-events" />
          )}
          {links.length > 0 && <Tab value="links" label={`Links (${links.length})`} data-testid="span-tab-links" />}
          {span.groupId && <Tab value="percentiles" label="Percentiles" data-testid="span-tab-percentiles" />}
        </Tabs>
        <Box sx={{ pt: 2 }}>
          {shownTab === 'attrs' && <SpanAttrs span={span} ctx={{ projectId, range, onFilter }} />}
          {shownTab === 'sql' && sql && <CodeBlock code={sql} testId="span-sql" />}
          {shownTab === 'sqlPretty' && sql && <PrettySql sql={sql} />}
          {shownTab === 'stacktrace' && stack && <CodeBlock code={stack} testId="span-stacktrace" />}
          {shownTab === 'events' && <EventPanels events={events} />}
          {shownTab === 'links' && <LinkPanels links={links} projectId={projectId} traceId={span.traceId} />}
          {shownTab === 'percentiles' && (
            <LoadPctileChart
              projectId={projectId}
              params={{
                ...range,
                group_id: span.groupId,
                query: pageQuery ? whereQuery(pageQuery) || undefined : undefined,
              }}
            />
          )}
        </Box>
      </Box>
    </Stack>
  );
}
