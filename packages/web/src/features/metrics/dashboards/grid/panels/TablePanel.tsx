import { type ColumnMap, type MetricAlias, toText } from '@lantern/shared';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Pager, usePager } from '../../../../../components/Pager';
import { formatDateTime } from '../../../../../lib/format/dateTime';
import { formatUnit } from '../../../../../lib/format/number';
import { useMetricTable, type Range } from '../gridApi';
import { ColumnTitle, GroupValue } from '../../tableCells';
import { columnUnit } from '../units';
import { PanelMessage } from './PanelMessage';
import { usePanelError } from './usePanelError';

const cell = (v: unknown, unit: string) =>
  unit === 'date' && typeof v === 'number' ? formatDateTime(new Date(v * 1000)) : formatUnit(v, unit);

/** A table panel: the grouped rows of its query, values in their column units, 5 rows a page. */
export function TablePanel({
  projectId,
  params,
  query,
  range,
  height,
  perPage = 5,
  onError,
}: {
  projectId: number;
  params: { metrics: MetricAlias[]; columnMap: ColumnMap };
  query: string;
  range: Range;
  height: number;
  perPage?: number;
  onError?: (error: string | undefined) => void;
}) {
  const res = useMetricTable(projectId, { metrics: params.metrics, query }, range);
  const error = usePanelError(onError, res.error, res.data?.query.parts);
  const items = res.data?.items ?? [];
  const pager = usePager(items.length, perPage);
  if (error && !items.length) return <PanelMessage height={height} error={error} />;
  if (!res.data) return <PanelMessage height={height} loading />;
  const columns = [...res.data.columns.filter((c) => c.isGroup), ...res.data.columns.filter((c) => !c.isGroup)];
  return (
    <Box sx={{ height, overflow: 'auto' }} data-testid="table-panel">
      <Table size="small" stickyHeader sx={{ '& td, & th': { py: '4px', fontSize: 13 } }}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.name} align={c.isGroup ? 'left' : 'right'}>
                <ColumnTitle column={c} />
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.slice(pager.start, pager.end).map((row, i) => (
            <TableRow
              key={row._id === undefined || row._id === null ? i : toText(row._id)}
              hover
              data-testid="table-panel-row"
            >
              {columns.map((c) => (
                <TableCell
                  key={c.name}
                  align={c.isGroup ? 'left' : 'right'}
                  sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
                >
                  {c.isGroup ? (
                    <GroupValue projectId={projectId} row={row} name={c.name} />
                  ) : (
                    cell(row[c.name], columnUnit(params.columnMap, c))
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {items.length === 0 && (
        <Typography sx={{ p: 2, textAlign: 'center', color: 'text.secondary' }} variant="body2">
          There are no metrics
        </Typography>
      )}
      {items.length > perPage && <Pager pager={pager} />}
    </Box>
  );
}
