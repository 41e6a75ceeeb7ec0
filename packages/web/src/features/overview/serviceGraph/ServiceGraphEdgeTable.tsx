import { Link, Table, TableBody, TableCell, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { formatDuration, formatNum, type ServiceGraphEdge } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { errorColor, errorRate } from './serviceGraphModel';

type Column = 'client' | 'server' | 'connectionType' | 'calls' | 'errorRate' | 'p50' | 'p99';
const COLUMNS: { key: Column; label: string; numeric?: boolean }[] = [
  { key: 'client', label: 'Client' },
  { key: 'server', label: 'Server' },
  { key: 'connectionType', label: 'Type' },
  { key: 'calls', label: 'Calls/min', numeric: true },
  { key: 'errorRate', label: 'Error %', numeric: true },
  { key: 'p50', label: 'p50', numeric: true },
  { key: 'p99', label: 'p99', numeric: true },
];

const valueOf = (e: ServiceGraphEdge, c: Column): string | number =>
  c === 'errorRate' ? (errorRate(e) ?? -1) : c === 'p50' || c === 'p99' ? (e[c] ?? -1) : e[c];

/**
 * The edges as a table (issue 36: the graph for seeing, the table for reading): sortable by any
 * column; a service name opens its card, a row's other cells the edge's card, and each row links
 * to the edge's client spans in Explore.
 */
export function ServiceGraphEdgeTable({
  edges,
  minutes,
  exploreHref,
  onNode,
  onEdge,
}: {
  edges: ServiceGraphEdge[];
  minutes: number;
  exploreHref: (e: ServiceGraphEdge) => string;
  onNode: (name: string) => void;
  onEdge: (e: ServiceGraphEdge) => void;
}) {
  const [order, setOrder] = useState<{ by: Column; desc: boolean }>({ by: 'calls', desc: true });
  const sorted = useMemo(() => {
    const out = [...edges].sort((a, b) => {
      const x = valueOf(a, order.by);
      const y = valueOf(b, order.by);
      const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return order.desc ? -cmp : cmp;
    });
    return out;
  }, [edges, order]);

  return (
    <Table
      size="small"
      data-testid="service-graph-edges"
      sx={{
        '& td, & th': { px: 1, whiteSpace: 'nowrap' },
        '& td.name': { whiteSpace: 'normal', overflowWrap: 'anywhere' },
      }}
    >
      <TableHead>
        <TableRow>
          {COLUMNS.map((c) => (
            <TableCell key={c.key} align={c.numeric ? 'right' : 'left'}>
              <TableSortLabel
                active={order.by === c.key}
                direction={order.by === c.key && !order.desc ? 'asc' : 'desc'}
                onClick={() => setOrder((o) => ({ by: c.key, desc: o.by === c.key ? !o.desc : !!c.numeric }))}
                data-testid={`edge-sort-${c.key}`}
              >
                {c.label}
              </TableSortLabel>
            </TableCell>
          ))}
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {sorted.map((e) => {
          const rate = errorRate(e);
          return (
            <TableRow
              key={`${e.client}\n${e.server}\n${e.connectionType}`}
              hover
              data-testid="service-graph-edge"
              data-client={e.client}
              data-server={e.server}
              sx={{ cursor: 'pointer' }}
              onClick={() => onEdge(e)}
            >
              {(['client', 'server'] as const).map((side) => (
                <TableCell key={side} className="name" data-testid={`edge-${side}`}>
                  <Link
                    component="button"
                    underline="hover"
                    onClick={(ev) => {
                      ev.stopPropagation();
                      onNode(e[side]);
                    }}
                  >
                    {e[side]}
                  </Link>
                </TableCell>
              ))}
              <TableCell>{e.connectionType}</TableCell>
              <TableCell align="right" data-testid="edge-rate">
                {formatNum(e.calls / Math.max(1, minutes))}
              </TableCell>
              <TableCell align="right" sx={{ color: errorColor(e) }} data-testid="edge-errors">
                {rate === null ? '–' : `${formatNum(rate * 100)} %`}
              </TableCell>
              <TableCell align="right">{e.p50 === null ? '–' : formatDuration(e.p50)}</TableCell>
              <TableCell align="right">{e.p99 === null ? '–' : formatDuration(e.p99)}</TableCell>
              <TableCell onClick={(ev) => ev.stopPropagation()}>
                <Link component={RouterLink} to={exploreHref(e)} data-testid="edge-explore">
                  Spans
                </Link>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
