import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, Grid, IconButton, LinearProgress, Stack, Typography } from '@mui/material';
import type { GroupRow } from '@lantern/shared';
import { useMemo } from 'react';
import { MetricChart } from '../../../components/charts/MetricChart';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import { useLocalDateRange } from '../../../components/date/useDateRange';
import { truncate } from '../../../lib/text/truncate';
import { joinQuery } from '../query/defaultQueries';
import { useTimeseries, type RangeQuery } from '../tracingApi';

/** Spec §9: the group metrics dialog is 1400px wide and its date range goes up to 90 days. */
const MAX_DAYS = 90;

/** One group's metric columns over time with its own date range (spec §2 Groups tab, chart dialog). */
export function GroupChartDialog({
  projectId,
  group,
  range,
  onClose,
}: {
  projectId: number;
  group: GroupRow;
  range: RangeQuery;
  onClose: () => void;
}) {
  const dateRange = useLocalDateRange(undefined, { maxDays: MAX_DAYS });
  const { data, isFetching } = useTimeseries(projectId, {
    ...range,
    ...dateRange.apiParams,
    query: joinQuery([range.query, group._query]),
  });
  const row = data?.groups[0];
  const charts = useMemo(
    () =>
      (data?.columns ?? [])
        .filter((c) => c.isNum && !c.isGroup)
        .map((c) => ({
          column: c,
          series: row ? [{ name: c.name, unit: c.unit, values: (row[c.name] as number[]) ?? [] }] : [],
        })),
    [data, row],
  );
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 1400 } } }}
      data-testid="group-chart-dialog"
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, py: 1 }}>
        <Typography variant="h6" sx={{ fontSize: '1.1rem', flexGrow: 1 }} title={group._name}>
          {truncate(group._name, 120)}
        </Typography>
        <DateRangePicker state={dateRange} autoRefresh={false} />
        <IconButton onClick={onClose} aria-label="Close" data-testid="group-chart-close">
          <CloseIcon />
        </IconButton>
      </Stack>
      {isFetching && <LinearProgress sx={{ height: 2 }} />}
      <DialogContent>
        <Grid container spacing={2}>
          {charts.map((c) => (
            <Grid key={c.column.name} size={charts.length > 1 ? 6 : 12} data-testid="group-chart">
              <Typography variant="subtitle2">{c.column.name}</Typography>
              <MetricChart time={data?.time ?? []} series={c.series} legend={false} />
            </Grid>
          ))}
        </Grid>
      </DialogContent>
    </Dialog>
  );
}
