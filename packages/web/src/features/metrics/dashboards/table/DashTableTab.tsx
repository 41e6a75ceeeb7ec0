import EditIcon from '@mui/icons-material/Edit';
import {
  LinearProgress,
  Alert,
  Box,
  Button,
  Card,
  InputAdornment,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { type Dashboard, type GridColumn, toText } from '@lantern/shared';
import { useMemo, useState } from 'react';
import type { DateRangeState } from '../../../../components/date/useDateRange';
import { Pager, usePager } from '../../../../components/Pager';
import { formatUnit } from '../../../../lib/format/number';
import { MetricsQueryBuilder } from '../../query/MetricsQueryBuilder';
import { useUpdateDashboardTable } from '../dashboardsApi';
import { tableConfigured } from '../dashboardTab';
import { GaugeRow } from '../gauges/GaugeRow';
import { useMetricTable, type Range } from '../grid/gridApi';
import { ColumnTitle, GroupValue, groupText } from '../tableCells';
import { columnUnit, queryError } from '../grid/units';
import { DashTableForm } from './DashTableForm';
import { GroupingToggle } from './GroupingToggle';
import { TableRowDialog } from './TableRowDialog';
import { rowGroups, searchRows, sortRows, type RowGroups } from './rowFilter';

/** Rows a page (spec §9: metrics tables show 10 by default, the pager hidden at 5 rows or fewer). */
const PER_PAGE = 10;
const PAGER_ABOVE = 5;

/**
 * Spec Dashboard page, Table tab: the gauge row, the table's query (Save when changed), one row per
 * group with quick search, sorting and units, 'Edit table'; a row opens the grid for that row alone
 * (when the dashboard has a grid).
 */
export function DashTableTab({
  projectId,
  dashboard,
  grid,
  dateRange,
  range,
}: {
  projectId: number;
  dashboard: Dashboard;
  grid: GridColumn[];
  /** The dashboard page's range; a row's dialog shows its picker and Reload too. */
  dateRange: DateRangeState;
  /** Its API form with the dashboard variables' values (issue 41). */
  range: Range;
}) {
  const [draft, setDraft] = useState<string | undefined>();
  const query = draft ?? dashboard.tableQuery;
  const [editing, setEditing] = useState(false);
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<{ column: string; desc: boolean } | null>(null);
  const [openRow, setOpenRow] = useState<{ title: string; groups: RowGroups } | null>(null);
  const save = useUpdateDashboardTable(projectId);
  const res = useMetricTable(projectId, { metrics: dashboard.tableMetrics, query }, range);
  const columns = useMemo(() => {
    const cols = res.data?.columns ?? [];
    return [...cols.filter((c) => c.isGroup), ...cols.filter((c) => !c.isGroup)];
  }, [res.data]);
  const rows = useMemo(() => {
    const found = searchRows(res.data?.items ?? [], columns, search);
    return order ? sortRows(found, order.column, order.desc) : found;
  }, [res.data, columns, search, order]);
  const pager = usePager(rows.length, PER_PAGE);
  const error = res.error?.message ?? queryError(res.data?.query.parts);
  const configured = tableConfigured(dashboard);

  return (
    <Stack spacing={2} data-testid="table-tab">
      <GaugeRow projectId={projectId} dashboard={dashboard} dashKind="table" range={range} />
      {!configured ? (
        <Card variant="outlined" sx={{ p: 3, textAlign: 'center' }} data-testid="table-not-configured">
          <Typography gutterBottom>
            This dashboard has no table yet: pick the metrics and how to group them (for example by service or host).
          </Typography>
          <Button
            variant="contained"
            startIcon={<EditIcon />}
            onClick={() => setEditing(true)}
            data-testid="edit-table"
          >
            Edit table
          </Button>
        </Card>
      ) : (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <MetricsQueryBuilder
                projectId={projectId}
                metrics={dashboard.tableMetrics}
                query={query}
                onChange={setDraft}
                range={dateRange.apiParams}
                parts={res.data?.query.parts}
              />
              <GroupingToggle
                projectId={projectId}
                metrics={dashboard.tableMetrics}
                query={query}
                // isFetching, not isLoading: the previous answer stays on screen while the next one loads
                // (keepPreviousData), and a second toggle then would race the first (spec §4).
                onChange={(q) => !res.isFetching && setDraft(q)}
              />
            </Box>
            {draft !== undefined && draft !== dashboard.tableQuery && (
              <Button
                variant="contained"
                disabled={save.isPending}
                onClick={() =>
                  save.mutate(
                    {
                      dashId: dashboard.id,
                      body: {
                        tableMetrics: dashboard.tableMetrics,
                        tableQuery: draft,
                        tableColumnMap: dashboard.tableColumnMap,
                      },
                    },
                    { onSuccess: () => setDraft(undefined) },
                  )
                }
                data-testid="table-query-save"
              >
                Save
              </Button>
            )}
            <Button startIcon={<EditIcon />} onClick={() => setEditing(true)} data-testid="edit-table">
              Edit table
            </Button>
          </Stack>
          <Card variant="outlined">
            <Stack direction="row" sx={{ p: 1, alignItems: 'center', gap: 2 }}>
              <TextField
                size="small"
                placeholder="Search..."
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                slotProps={{
                  input: {
                    startAdornment: (
                      <InputAdornment position="start">
                        <SearchIcon fontSize="small" />
                      </InputAdornment>
                    ),
                  },
                  htmlInput: { 'data-testid': 'table-search' },
                }}
              />
              {error && (
                <Tooltip title={error}>
                  <Typography color="error" variant="body2" data-testid="table-error">
                    The query has an error
                  </Typography>
                </Tooltip>
              )}
            </Stack>
            {/* The first answer and every reload: the rows on screen are the previous answer's. */}
            <LinearProgress
              sx={{ height: 2, visibility: res.isFetching ? 'visible' : 'hidden' }}
              data-testid={res.isFetching ? 'table-loading' : undefined}
            />
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="dash-table">
                <TableHead>
                  <TableRow>
                    {columns.map((c) => (
                      <TableCell
                        key={c.name}
                        align={c.isGroup ? 'left' : 'right'}
                        sortDirection={order?.column === c.name ? (order.desc ? 'desc' : 'asc') : false}
                      >
                        <TableSortLabel
                          active={order?.column === c.name}
                          direction={order?.column === c.name && order.desc ? 'desc' : 'asc'}
                          onClick={() =>
                            setOrder({ column: c.name, desc: order?.column === c.name ? !order.desc : !c.isGroup })
                          }
                        >
                          <ColumnTitle column={c} />
                        </TableSortLabel>
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.slice(pager.start, pager.end).map((row, i) => {
                    const title = columns
                      .filter((c) => c.isGroup)
                      .map((c) => groupText(row, c.name))
                      .join(' · ');
                    return (
                      <TableRow
                        key={row._id === undefined || row._id === null ? i : toText(row._id)}
                        hover
                        sx={{ cursor: grid.length ? 'pointer' : 'default' }}
                        onClick={() => grid.length && setOpenRow({ title, groups: rowGroups(columns, row) })}
                        data-testid="dash-table-row"
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
                              formatUnit(row[c.name], columnUnit(dashboard.tableColumnMap, c))
                            )}
                          </TableCell>
                        ))}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </Box>
            {res.data && rows.length === 0 && (
              <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="table-empty">
                There are no metrics
              </Typography>
            )}
            {rows.length > PAGER_ABOVE && <Pager pager={pager} />}
          </Card>
        </>
      )}
      {res.error && !res.data && <Alert severity="error">{res.error.message}</Alert>}
      {editing && (
        <DashTableForm
          projectId={projectId}
          dashboard={dashboard}
          query={query}
          range={range}
          onSaved={() => setDraft(undefined)}
          onClose={() => setEditing(false)}
        />
      )}
      {openRow && (
        <TableRowDialog
          projectId={projectId}
          dashboard={dashboard}
          grid={grid}
          dateRange={dateRange}
          title={openRow.title}
          groups={openRow.groups}
          onClose={() => setOpenRow(null)}
        />
      )}
    </Stack>
  );
}
