import type { Metric } from '@lantern/shared';
import {
  Box,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { Pager, usePager } from '../../../components/Pager';
import { sortMetrics, type MetricSort } from './exploreState';

const PER_PAGE = 10;
const MAX_KEYS = 6;
const DEFAULT_SORT: MetricSort = { by: 'numTimeseries', desc: true };

/**
 * The explore page's metrics table: Metric (name, description, attribute keys), Instrument and
 * Timeseries, sortable; a row opens the metric. The pager shows only past 10 rows. The busiest
 * metrics come first (timeseries count descending, spec tracing §2); a header click sorts by its
 * column, a second click reverses it: some column always sorts the table.
 */
export function MetricsTable({
  metrics,
  hasMore,
  onOpen,
}: {
  metrics: readonly Metric[];
  hasMore: boolean;
  onOpen: (m: Metric) => void;
}) {
  const [sort, setSort] = useState<MetricSort>(DEFAULT_SORT);
  const rows = useMemo(() => sortMetrics(metrics, sort), [metrics, sort]);
  const pager = usePager(rows.length, PER_PAGE);
  if (metrics.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="no-metrics">
        There are no metrics
      </Typography>
    );
  }
  const header = (by: MetricSort['by'], label: string, align: 'left' | 'right' = 'left') => (
    <TableCell align={align} sortDirection={sort.by === by ? (sort.desc ? 'desc' : 'asc') : false}>
      <TableSortLabel
        active={sort.by === by}
        direction={sort.by === by && sort.desc ? 'desc' : 'asc'}
        onClick={() => setSort({ by, desc: sort.by === by ? !sort.desc : by === 'numTimeseries' })}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
  return (
    <Box>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="metrics-table">
          <TableHead>
            <TableRow>
              {header('name', 'Metric')}
              {header('instrument', 'Instrument')}
              {header('numTimeseries', 'Timeseries', 'right')}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.slice(pager.start, pager.end).map((m) => (
              <TableRow
                key={m.name}
                hover
                onClick={() => onOpen(m)}
                sx={{ cursor: 'pointer' }}
                data-testid="metric-row"
                data-metric={m.name}
              >
                <TableCell sx={{ maxWidth: 700 }}>
                  <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all' }}>
                    {m.name}
                  </Typography>
                  {m.description && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {m.description}
                    </Typography>
                  )}
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
                    {m.attrKeys.slice(0, MAX_KEYS).map((k) => (
                      <Chip key={k} label={k} size="small" variant="outlined" sx={{ height: 20, fontSize: 11 }} />
                    ))}
                    {m.attrKeys.length > MAX_KEYS && (
                      <Chip label={`+${m.attrKeys.length - MAX_KEYS}`} size="small" sx={{ height: 20, fontSize: 11 }} />
                    )}
                  </Box>
                </TableCell>
                <TableCell>{m.instrument}</TableCell>
                <TableCell align="right">{m.numTimeseries ?? 0}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {hasMore && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', mt: 1 }}
          data-testid="metrics-more"
        >
          There are more metrics than shown: narrow them with a search, attributes or a shorter range.
        </Typography>
      )}
      {rows.length > PER_PAGE && <Pager pager={pager} testId="metrics-pager" />}
    </Box>
  );
}
