import {
  Box,
  Button,
  LinearProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import type { Span } from '@lantern/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Pager, type PagerState } from '../../../components/Pager';
import { pagerWindow } from '../../../components/pagerWindow';
import { formatRelative } from '../../../lib/format/dateTime';
import { formatDuration } from '@lantern/shared';
import { paths } from '../../../lib/routes/paths';
import { hasNoDuration } from '../query/defaultQueries';
import { SpanChips } from '../span/SpanChips';
import { SpanDialog } from '../span/SpanDialog';
import { useSpans, type RangeQuery } from '../tracingApi';
import { spanValueText, type SpanColumn } from './spanColumns';
import { markWords } from './live/searchWords';

export interface SpanOrder {
  column: '.time' | '.duration';
  desc: boolean;
}

/** Spans are paged by the server, 10 per page. */
export const SPANS_PER_PAGE = 10;

/**
 * The span list (spec §2 Spans tab): Span Name, System, chips, the extra columns the query names
 * (`columns`), Time, Dur.; a row opens the span dialog.
 */
export function SpansTable({
  projectId,
  spans,
  loading,
  order,
  onOrder,
  showSystem,
  eventsMode,
  onChip,
  pageQuery,
  columns = [],
  highlight = [],
  emptyText,
}: {
  projectId: number;
  spans: Span[];
  loading?: boolean;
  order: SpanOrder;
  onOrder: (o: SpanOrder) => void;
  showSystem?: boolean;
  eventsMode?: boolean;
  onChip?: (key: string, value: string) => void;
  pageQuery?: string;
  /** Extra columns (the query's group-by and aggregated attributes), each with the span's own value. */
  columns?: SpanColumn[];
  /** Words marked in the names (the query's search words). */
  highlight?: readonly string[];
  /** Said when there are no rows, in place of the no-match card. */
  emptyText?: string;
}) {
  const [active, setActive] = useState<Span | null>(null);
  const sort = (column: SpanOrder['column'], label: string) => (
    <TableSortLabel
      active={order.column === column}
      direction={order.column === column && !order.desc ? 'asc' : 'desc'}
      onClick={() => onOrder({ column, desc: order.column === column ? !order.desc : true })}
      data-testid={`spans-sort-${column.slice(1)}`}
    >
      {label}
    </TableSortLabel>
  );
  const now = Date.now();
  return (
    <Box data-testid="spans-table">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Span Name</TableCell>
            {showSystem && <TableCell>System</TableCell>}
            <TableCell />
            {columns.map((c) => (
              <TableCell key={c.key} sx={{ whiteSpace: 'nowrap' }} data-testid="span-column-header">
                {c.key}
              </TableCell>
            ))}
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{sort('.time', 'Time')}</TableCell>
            {!eventsMode && (
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {sort('.duration', 'Dur.')}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && (
            <TableRow>
              <TableCell colSpan={5 + columns.length} sx={{ p: 0 }}>
                <LinearProgress sx={{ height: 2 }} />
              </TableCell>
            </TableRow>
          )}
          {spans.map((s) => (
            <TableRow
              key={`${s.traceId}-${s.id}`}
              hover
              sx={{ cursor: 'pointer' }}
              onClick={() => setActive(s)}
              data-testid="span-list-row"
            >
              <TableCell sx={{ wordBreak: 'break-word' }} data-testid="span-list-name">
                {highlight.length ? <MarkedText text={s.displayName} words={highlight} /> : s.displayName}
              </TableCell>
              {showSystem && (
                <TableCell
                  onClick={(e) => e.stopPropagation()}
                  sx={{ whiteSpace: 'nowrap' }}
                  data-testid="span-list-system"
                >
                  <Link component={RouterLink} to={paths.spanItems(projectId, { system: s.system })} underline="hover">
                    {s.system}
                  </Link>
                </TableCell>
              )}
              <TableCell>
                <SpanChips span={s} onChip={onChip} />
              </TableCell>
              {columns.map((c) => (
                <TableCell
                  key={c.key}
                  sx={{ wordBreak: 'break-word' }}
                  data-testid="span-column-value"
                  data-column={c.key}
                >
                  {spanValueText(s, c)}
                </TableCell>
              ))}
              <TableCell sx={{ whiteSpace: 'nowrap' }} title={s.time}>
                {formatRelative(new Date(s.time), now)}
              </TableCell>
              {!eventsMode && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  {formatDuration(s.duration)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!loading &&
        spans.length === 0 &&
        (emptyText ? (
          <Typography sx={{ textAlign: 'center', py: 4 }} color="text.secondary" data-testid="spans-waiting">
            {emptyText}
          </Typography>
        ) : (
          <NoSpans projectId={projectId} />
        ))}
      <SpanDialog span={active} onClose={() => setActive(null)} onSpanList pageQuery={pageQuery} onFilter={onChip} />
    </Box>
  );
}

function MarkedText({ text, words }: { text: string; words: readonly string[] }) {
  return (
    <>
      {markWords(text, words).map((p, i) =>
        p.marked ? (
          <mark key={i} data-testid="search-word">
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

export function NoSpans({ projectId }: { projectId: number }) {
  return (
    <Stack sx={{ alignItems: 'center', py: 4 }} spacing={2} data-testid="spans-empty">
      <Typography>There are no matching spans. Try to change filters.</Typography>
      <Button variant="outlined" size="small" component={RouterLink} to={paths.tracingHelp(projectId)}>
        Help
      </Button>
    </Stack>
  );
}

/** Server-side paging state for a span list. */
export function serverPager(page: number, setPage: (p: number) => void, total: number): PagerState {
  const win = pagerWindow(page, SPANS_PER_PAGE, total);
  return { page: win.page, setPage, perPage: SPANS_PER_PAGE, total, pages: win.pages, start: win.start, end: win.end };
}

/** A group's spans inline (under a group row): its own paging and order. */
export function SpansList({ projectId, range }: { projectId: number; range: RangeQuery }) {
  const events = hasNoDuration(range.system?.[0]);
  const [order, setOrder] = useState<SpanOrder>({ column: events ? '.time' : '.duration', desc: true });
  const [page, setPage] = useState(1);
  const { data, isFetching } = useSpans(projectId, {
    ...range,
    sort_by: order.column,
    sort_desc: order.desc,
    page,
    limit: SPANS_PER_PAGE,
  });
  return (
    <Box data-testid="group-spans">
      <SpansTable
        projectId={projectId}
        spans={data?.spans ?? []}
        loading={isFetching}
        order={order}
        onOrder={setOrder}
        eventsMode={events}
      />
      <Pager pager={serverPager(page, setPage, data?.count ?? 0)} testId="spans-pager" />
    </Box>
  );
}
