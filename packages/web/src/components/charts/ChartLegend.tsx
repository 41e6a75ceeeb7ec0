import { Box, Table, TableBody, TableCell, TableHead, TableRow, TableSortLabel } from '@mui/material';
import type { ReactNode } from 'react';
import { formatMetric } from '../../lib/format/number';
import { truncateMiddle } from '../../lib/text/truncate';
import { Pager, type PagerState } from '../Pager';
import { legendValues, type Series } from './chartOptions';
import { nextLegendSort, type LegendSort, type LegendSortKey, type LegendValue } from './legendSort';

export type { LegendValue } from './legendSort';

interface LegendProps {
  series: (Series & { color: string })[];
  values: LegendValue[];
  hidden: ReadonlySet<string>;
  onToggle: (name: string) => void;
  onHover: (name: string | undefined) => void;
  maxLength: number;
  vertical?: boolean;
}

/**
 * The list legend (reference frontend §3.5): a dot, the name, the chosen values; click isolates,
 * hover emphasises. A chart may have hundreds of series, so the items are plain elements styled
 * once by the container (an `sx` per item costs a style computation each).
 */
export function ListLegend({ series, values, hidden, onToggle, onHover, maxLength, vertical }: LegendProps) {
  return (
    <Box
      data-testid="legend-list"
      sx={{
        display: 'flex',
        flexDirection: vertical ? 'column' : 'row',
        flexWrap: vertical ? 'nowrap' : 'wrap',
        justifyContent: 'center',
        gap: vertical ? 0.25 : 1.5,
        py: 0.5,
        px: 1,
        '& .legend-item': {
          display: 'flex',
          alignItems: 'center',
          gap: 0.75,
          cursor: 'pointer',
          userSelect: 'none',
          minWidth: 0,
          typography: 'caption',
        },
        '& .legend-dot': { flex: 'none', width: 10, height: 10, borderRadius: '50%' },
        '& .legend-name': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: 'text.primary' },
        '& .legend-value': { fontWeight: 500, fontVariantNumeric: 'tabular-nums' },
        '& [data-hidden] .legend-name': { color: 'text.disabled' },
        '& [data-hidden] .legend-dot': { bgcolor: 'grey.400' },
      }}
    >
      {series.map((s) => {
        const v = legendValues(s.values);
        return (
          <div
            key={s.name}
            className="legend-item"
            data-testid="legend-item"
            data-hidden={hidden.has(s.name) || undefined}
            onClick={() => onToggle(s.name)}
            onMouseEnter={() => onHover(s.name)}
            onMouseLeave={() => onHover(undefined)}
          >
            <span className="legend-dot" style={hidden.has(s.name) ? undefined : { background: s.color }} />
            <span className="legend-name" title={s.name}>
              {truncateMiddle(s.name, maxLength)}
            </span>
            {values.map((k) => (
              <span key={k} className="legend-value" title={`${k}: ${formatMetric(v[k], s.unit)}`}>
                {formatMetric(v[k], s.unit)}
              </span>
            ))}
          </div>
        );
      })}
    </Box>
  );
}

/**
 * The table legend: metric plus the chosen values, 9 rows a page (pager from the caller). With
 * `onSort`, a click on a header sorts by that column (reference frontend §3.5: sortable): the
 * caller sorts `series` (sortLegendSeries) before paging, so the page it plots is the top of the
 * sort; `sort` undefined means no column is sorted yet (rows in the order given). Without `onSort`
 * the headers are plain text.
 */
export function TableLegend({
  series,
  values,
  hidden,
  onToggle,
  onHover,
  maxLength,
  pager,
  sort,
  onSort,
}: LegendProps & { pager: PagerState; sort?: LegendSort; onSort?: (next: LegendSort) => void }) {
  const header = (key: LegendSortKey, label: ReactNode, align?: 'right') => {
    const active = sort?.key === key;
    return (
      <TableCell
        key={key}
        align={align}
        data-testid={`legend-sort-${key}`}
        aria-sort={onSort && sort && active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      >
        {onSort ? (
          <TableSortLabel
            active={active}
            direction={sort && active ? sort.dir : key === 'name' ? 'asc' : 'desc'}
            onClick={() => onSort(nextLegendSort(sort, key))}
          >
            {label}
          </TableSortLabel>
        ) : (
          label
        )}
      </TableCell>
    );
  };
  return (
    <Box data-testid="legend-table">
      <Table size="small" sx={{ '& td, & th': { py: '3px', fontSize: 12 } }}>
        <TableHead>
          <TableRow>
            {header('name', 'metric')}
            {values.map((k) => header(k, k, 'right'))}
          </TableRow>
        </TableHead>
        <TableBody>
          {series.slice(pager.start, pager.end).map((s) => {
            const off = hidden.has(s.name);
            const v = legendValues(s.values);
            return (
              <TableRow
                key={s.name}
                hover
                data-testid="legend-row"
                onMouseEnter={() => onHover(s.name)}
                onMouseLeave={() => onHover(undefined)}
              >
                <TableCell
                  sx={{ cursor: 'pointer', opacity: off ? 0.5 : 1 }}
                  title={s.name}
                  onClick={() => onToggle(s.name)}
                  data-testid="legend-name"
                >
                  <Box
                    component="span"
                    sx={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: '50%',
                      bgcolor: off ? 'grey.400' : s.color,
                      mr: 1,
                    }}
                  />
                  {truncateMiddle(s.name, maxLength)}
                </TableCell>
                {values.map((k) => (
                  <TableCell key={k} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatMetric(v[k], s.unit)}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {series.length > 9 && <Pager pager={pager} />}
    </Box>
  );
}
