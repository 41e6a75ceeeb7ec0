import type { ColumnMap, MetricAlias } from '@lantern/shared';
import AddchartIcon from '@mui/icons-material/Addchart';
import CloseIcon from '@mui/icons-material/Close';
import RadarIcon from '@mui/icons-material/Radar';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';
import type { Series } from '../../../components/charts/chartOptions';
import { MetricChart } from '../../../components/charts/MetricChart';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import type { DateRangeState } from '../../../components/date/useDateRange';
import { ColumnUnits } from '../dashboards/grid/forms/ColumnUnits';
import { columnUnit, queryError } from '../dashboards/grid/units';
import { useMetricTimeseries } from '../metricsApi';
import { MetricsPicker } from '../query/MetricsPicker';
import { MetricsQueryBuilder } from '../query/MetricsQueryBuilder';
import { aliasError } from '../query/queryEdit';
import { AddToDashboardDialog } from './AddToDashboardDialog';

const CHART_HEIGHT = 400;
const LEGEND_MAX_LENGTH = 150;

/**
 * 'Explore metric' (spec tracing §Metrics explore): step 1 the metrics (with their aliases), step 2
 * the query (aggregations, group by, where), a unit per result column, and the 400 px chart with its
 * avg / last / min / max legend. The metrics and the query live in the address (the page owns them).
 */
export function ExploreMetricDialog({
  projectId,
  metrics,
  query,
  onMetrics,
  onQuery,
  onClose,
  dateRange,
}: {
  projectId: number;
  metrics: MetricAlias[];
  query: string;
  /** The metrics and the query in step with them (the picker keeps its `$alias` parts). */
  onMetrics: (m: MetricAlias[], q: string) => void;
  onQuery: (q: string) => void;
  onClose: () => void;
  dateRange: DateRangeState;
}) {
  const [units, setUnits] = useState<ColumnMap>({});
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  // 'Create monitor': the monitor form prefilled with the metrics, the query and the units.
  const monitor = () =>
    void navigate(
      paths.monitorMetricNew(projectId, {
        name: metrics.map((m) => m.name).join(', '),
        metric: metrics.map((m) => m.name),
        alias: metrics.map((m) => m.alias),
        query,
        columns: JSON.stringify(units),
      }),
    );
  const valid = metrics.length > 0 && metrics.every((m) => !aliasError(m.alias, metrics));
  const res = useMetricTimeseries(
    projectId,
    valid
      ? { metric: metrics.map((m) => m.name), alias: metrics.map((m) => m.alias), query, ...dateRange.apiParams }
      : undefined,
  );
  const data = valid ? res.data : undefined;
  const error = res.error?.message ?? queryError(data?.query.parts);
  const series = useMemo<Series[]>(
    () =>
      (data?.timeseries ?? []).map((ts) => ({
        name: ts.name,
        unit: columnUnit(units, { name: ts.metric, unit: ts.unit }),
        values: ts.value,
      })),
    [data, units],
  );

  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: 1200 } } }}
      data-testid="explore-metric-dialog"
    >
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 2, pr: 1 }}>
        <Box sx={{ flex: 1 }}>Explore metric</Box>
        <Button
          size="small"
          startIcon={<AddchartIcon />}
          disabled={!valid || !query.trim()}
          onClick={() => setAdding(true)}
          data-testid="explore-add-to-dashboard"
        >
          Add to dashboard
        </Button>
        <Button
          size="small"
          startIcon={<RadarIcon />}
          disabled={!valid || !query.trim()}
          onClick={monitor}
          data-testid="explore-create-monitor"
        >
          Create monitor
        </Button>
        <DateRangePicker state={dateRange} autoRefresh={false} />
        <IconButton aria-label="Close" onClick={onClose} data-testid="explore-metric-close">
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              1. Metrics
            </Typography>
            <MetricsPicker projectId={projectId} value={metrics} query={query} onChange={onMetrics} shape="columns" />
          </Box>
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              2. Aggregations, group by and where
            </Typography>
            <MetricsQueryBuilder
              projectId={projectId}
              metrics={metrics}
              query={query}
              onChange={onQuery}
              range={dateRange.apiParams}
              parts={data?.query.parts}
            />
          </Box>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ flex: 1, minWidth: 0, position: 'relative', width: '100%' }} data-testid="explore-chart">
              {res.isFetching && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2 }} />}
              {error && (
                <Alert severity="error" sx={{ mb: 1 }} data-testid="explore-error">
                  {error}
                </Alert>
              )}
              {!valid ? (
                <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
                  Select a metric with a valid alias to see its chart
                </Typography>
              ) : (
                <MetricChart
                  time={data?.time ?? []}
                  series={series}
                  height={CHART_HEIGHT}
                  legendMaxLength={LEGEND_MAX_LENGTH}
                  testId="explore-metric-chart"
                />
              )}
            </Box>
            {data && data.columns.some((c) => !c.isGroup) && (
              <Box sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0 }}>
                <ColumnUnits columns={data.columns} value={units} onChange={setUnits} />
              </Box>
            )}
          </Stack>
        </Stack>
      </DialogContent>
      {adding && (
        <AddToDashboardDialog
          projectId={projectId}
          metrics={metrics}
          query={query}
          columnMap={units}
          onClose={() => setAdding(false)}
        />
      )}
    </Dialog>
  );
}
