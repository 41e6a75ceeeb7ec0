import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Button, IconButton, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { formatDuration } from '../../lib/format/duration';
import { paths } from '../../lib/routes/paths';
import { SpanStatus } from './SpanStatus';
import { parentSpanIds, spanTreeRows } from './spanTreeRows';

const INDENT_PX = 20;

/** The trace's spans as an indented tree with expand/collapse (the timeline bars come later). */
export function SpanTree({ root }: { root: Span }) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => spanTreeRows(root, collapsed), [root, collapsed]);

  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Box data-testid="span-tree">
      <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
        <Button size="small" onClick={() => setCollapsed(new Set())} data-testid="span-tree-expand-all">
          Expand all
        </Button>
        <Button size="small" onClick={() => setCollapsed(new Set(parentSpanIds(root).filter((id) => id !== root.id)))} data-testid="span-tree-collapse-all">
          Collapse all
        </Button>
      </Stack>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Operation</TableCell>
            <TableCell sx={{ width: 200 }}>System</TableCell>
            <TableCell sx={{ width: 110 }} align="right">
              Duration
            </TableCell>
            <TableCell sx={{ width: 90 }}>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(({ span, level, hasChildren, collapsed: isCollapsed }) => (
            <TableRow key={span.id} hover data-testid="span-row" data-span-id={span.id} data-level={level}>
              <TableCell sx={{ py: 0.5 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', pl: `${level * INDENT_PX}px`, minWidth: 0 }}>
                  {hasChildren ? (
                    <IconButton
                      size="small"
                      onClick={() => toggle(span.id)}
                      aria-label={isCollapsed ? 'Expand' : 'Collapse'}
                      aria-expanded={!isCollapsed}
                      data-testid="span-toggle"
                    >
                      {isCollapsed ? <ChevronRightIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
                    </IconButton>
                  ) : (
                    <Box sx={{ width: 30, flexShrink: 0 }} />
                  )}
                  <Link
                    component={RouterLink}
                    to={paths.span(span.projectId, span.traceId, span.id)}
                    underline="hover"
                    color="inherit"
                    title={span.displayName}
                    sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: span.statusCode === 'error' ? 'error.main' : undefined }}
                    data-testid="span-name"
                  >
                    {span.displayName}
                  </Link>
                </Box>
              </TableCell>
              <TableCell sx={{ py: 0.5, color: 'text.secondary' }} data-testid="span-system">
                {span.system}
              </TableCell>
              <TableCell sx={{ py: 0.5, fontVariantNumeric: 'tabular-nums' }} align="right" data-testid="span-duration">
                {formatDuration(span.duration)}
              </TableCell>
              <TableCell sx={{ py: 0.5 }}>
                <SpanStatus code={span.statusCode} message={span.statusMessage} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
