import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, IconButton, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatDuration } from '@lantern/shared';
import { truncate } from '../../../lib/text/truncate';
import { SpanChips } from '../span/SpanChips';
import { spanTreeRows } from '../spanTreeRows';
import { barStyle, labelPosition, mergedDescendantBars, type Bar, type ColoredTrace } from './traceTimeline';

const ROW_HEIGHT = 40;
/** Spec §9: label indent 36px plus 20px per level. */
const indent = (level: number) => 36 + 20 * level;
const BAR: React.CSSProperties = { position: 'absolute', bottom: 6, height: 8 };
const MATCH = '#FFF8E1';
const MATCH_FOCUSED = '#FFE082';

interface RowProps {
  span: Span;
  level: number;
  hasChildren: boolean;
  collapsed: boolean;
  active: boolean;
  /** Found by the trace search; `focused` is the match the search is on. */
  match: boolean;
  focused: boolean;
  color: string;
  bars: Bar[];
  top: number;
  onToggle: (id: string) => void;
  onSelect: (span: Span) => void;
}

/** One timeline row; memoised and styled inline because thousands of them scroll by. */
const TimelineRow = memo(function TimelineRow({
  span,
  level,
  hasChildren,
  collapsed,
  active,
  match,
  focused,
  color,
  bars,
  top,
  onToggle,
  onSelect,
}: RowProps) {
  const label =
    hasChildren && !collapsed
      ? `${formatDuration(span.durationSelf)} of ${formatDuration(span.duration)}`
      : formatDuration(span.duration);
  return (
    <div
      onClick={() => onSelect(span)}
      data-testid="span-row"
      data-span-id={span.id}
      data-level={level}
      data-active={active || undefined}
      data-match={match || undefined}
      data-focused={focused || undefined}
      className={active ? 'timeline-row active' : 'timeline-row'}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        width: '100%',
        height: ROW_HEIGHT,
        transform: `translateY(${top}px)`,
        display: 'flex',
        borderBottom: '1px solid rgba(0,0,0,0.12)',
        cursor: 'pointer',
        background: focused ? MATCH_FOCUSED : match ? MATCH : undefined,
      }}
    >
      <div
        style={{
          width: '50%',
          display: 'flex',
          alignItems: 'center',
          paddingLeft: indent(level),
          paddingRight: 8,
          minWidth: 0,
          position: 'relative',
        }}
      >
        <IconButton
          size="small"
          sx={{ position: 'absolute', left: `${indent(level) - 32}px`, visibility: hasChildren ? 'visible' : 'hidden' }}
          disabled={!hasChildren}
          onClick={(e) => {
            e.stopPropagation();
            onToggle(span.id);
          }}
          aria-label={collapsed ? 'Expand' : 'Collapse'}
          aria-expanded={!collapsed}
          data-testid="span-toggle"
        >
          {collapsed ? <ChevronRightIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
        </IconButton>
        <Typography
          variant="body2"
          noWrap
          title={span.displayName}
          sx={{
            fontWeight: active ? 600 : undefined,
            mr: 1,
            minWidth: 64,
            color: span.statusCode === 'error' ? 'error.main' : undefined,
          }}
          data-testid="span-name"
        >
          {truncate(span.displayName, 100)}
        </Typography>
        <SpanChips span={span} traceMode />
      </div>
      <div style={{ width: '50%', position: 'relative', paddingRight: 8 }} data-testid="span-timeline-cell">
        <span
          style={{
            position: 'absolute',
            bottom: 14,
            whiteSpace: 'nowrap',
            fontSize: 12,
            ...labelPosition(span.startPct, span.endPct),
          }}
          data-testid="span-bar-label"
        >
          {label}
        </span>
        <div
          title={`${formatDuration(span.duration)} ${span.displayName}`}
          style={{ ...BAR, zIndex: 1, background: color, ...barStyle(span.startPct, span.endPct) }}
          data-testid="span-bar"
        />
        {bars.map((bar, i) => (
          <div
            key={i}
            style={{
              ...BAR,
              zIndex: 2,
              background: collapsed ? bar.color : 'rgba(255,255,255,0.45)',
              ...barStyle(bar.startPct, bar.endPct),
            }}
          />
        ))}
      </div>
    </div>
  );
});

/**
 * The trace timeline (spec tracing §2 Trace page): Operation and Timeline columns, one row per
 * span with an expand/collapse tree (its state is the page's). Rows are virtualised against the
 * window scroll and descendant bars are merged, so a 10,000-span trace stays responsive. Spans the
 * trace search found are tinted; the focused one is scrolled to once its row is shown.
 */
export function TraceTimeline({
  root,
  colors,
  activeId,
  collapsed,
  onToggle,
  onSelect,
  matches,
  focusId,
}: {
  root: Span;
  colors: ColoredTrace;
  activeId?: string;
  matches?: ReadonlySet<string>;
  focusId?: string;
  collapsed: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onSelect: (span: Span) => void;
}) {
  const rows = useMemo(() => spanTreeRows(root, collapsed), [root, collapsed]);
  const colorOf = (id: string) => colors.colorOf.get(id) ?? '#999';
  // Overlay bars of every span, once per trace.
  const barsById = useMemo(() => mergedDescendantBars(root, (id) => colors.colorOf.get(id) ?? '#999'), [root, colors]);
  const barsOf = (span: Span): Bar[] => barsById.get(span.id) ?? [];
  const listRef = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    scrollMargin: offset,
  });
  // Scroll to a newly focused match as soon as its row exists (its ancestors may open first).
  const scrolledTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (focusId === undefined || focusId === scrolledTo.current) return;
    const index = rows.findIndex((r) => r.span.id === focusId);
    if (index < 0) return;
    scrolledTo.current = focusId;
    virtualizer.scrollToIndex(index, { align: 'center' });
  }, [focusId, rows, virtualizer]);

  return (
    <Box
      data-testid="trace-timeline"
      sx={{
        typography: 'body2',
        '& .timeline-row:hover': { bgcolor: 'action.hover' },
        '& .timeline-row.active': { bgcolor: 'action.selected' },
      }}
    >
      <Box
        sx={{
          display: 'flex',
          borderBottom: 1,
          borderColor: 'divider',
          color: 'text.secondary',
          fontSize: 12,
          py: 0.5,
        }}
      >
        <Box sx={{ width: '50%', pl: '36px' }}>Operation</Box>
        <Box sx={{ width: '50%' }}>Timeline</Box>
      </Box>
      <div ref={listRef} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <TimelineRow
              key={row.span.id}
              span={row.span}
              level={row.level}
              hasChildren={row.hasChildren}
              collapsed={row.collapsed}
              active={row.span.id === activeId}
              match={matches?.has(row.span.id) ?? false}
              focused={row.span.id === focusId}
              color={colorOf(row.span.id)}
              bars={barsOf(row.span)}
              top={item.start - virtualizer.options.scrollMargin}
              onToggle={onToggle}
              onSelect={onSelect}
            />
          );
        })}
      </div>
    </Box>
  );
}
