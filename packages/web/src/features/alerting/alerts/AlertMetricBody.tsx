import { Box, Button, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { Alert, MetricAlertParams } from '@lantern/shared';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { metricChartOption } from '../../../components/charts/chartOptions';
import { EChart } from '../../../components/charts/EChart';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { paths } from '../../../lib/routes/paths';
import { LabelValues } from '../../tracing/LabelValues';
import { withAllowedRange } from './allowedRange';
import { useAlertEvents, useAlertMetrics, useAlertTimeseries } from './alertsApi';
import { stateFacts } from './alertState';
import {
  exploreMetricParams,
  hasMatchingSpans,
  matchingSpansParams,
  metricQueryChips,
  metricTrigger,
  monitorSeriesUnit,
} from './alertText';

export const ALERT_CHART_HEIGHT = 300;

/** The monitored column over the card's range with the allowed range shaded; 'NO DATA' when empty. */
function AlertChart({
  projectId,
  p,
  range,
}: {
  projectId: number;
  p: MetricAlertParams;
  range: { time_gte: string; time_lt: string };
}) {
  const ts = useAlertTimeseries(projectId, {
    metric: p.monitor.metrics.map((m) => m.name),
    alias: p.monitor.metrics.map((m) => m.alias),
    query: p.monitor.query,
    ...range,
  });
  const data = ts.data;
  const option = useMemo(() => {
    if (!data) return undefined;
    const series = data.timeseries
      .filter((s) => s.metric === p.monitor.column)
      .map((s) => ({ name: s.name, unit: monitorSeriesUnit(p.monitor.columnUnit, s.unit), values: s.value }));
    if (!series.length || !data.time.length) return undefined;
    return withAllowedRange(metricChartOption(data.time, series), p.bounds);
  }, [data, p]);

  if (ts.error) {
    return (
      <Typography color="error" variant="body2" data-testid="alert-chart-error">
        {ts.error.message}
      </Typography>
    );
  }
  // The chart's place while its query runs (a few seconds over a busy range): not a blank card.
  if (ts.isPending)
    return <Skeleton variant="rectangular" height={ALERT_CHART_HEIGHT} data-testid="alert-chart-loading" />;
  if (!option) {
    return (
      <Box
        sx={{ height: ALERT_CHART_HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        data-testid="alert-chart-empty"
      >
        <Typography variant="h5" sx={{ color: '#BDBDBD' }}>
          NO DATA
        </Typography>
      </Box>
    );
  }
  return <EChart option={option} height={ALERT_CHART_HEIGHT} testId="alert-chart" />;
}

/** Spec platform §2.6, a metric alert: query chips, State, Trigger, Time, First seen, links and the chart. */
export function AlertMetricBody({
  alert,
  range,
}: {
  alert: Alert & { params: MetricAlertParams };
  range: { time_gte: string; time_lt: string };
}) {
  const p = alert.params;
  // The history says how a closed alert was closed (the card's history reads the same events).
  const events = useAlertEvents(alert.projectId, alert.id);
  // 'Matching spans' only over metrics derived from spans: another metric's attributes name no span.
  const metrics = useAlertMetrics(
    alert.projectId,
    p.monitor.metrics.map((m) => m.name),
  );
  const spansLink = metrics.data !== undefined && hasMatchingSpans(p, metrics.data.metrics);
  return (
    <Stack spacing={2} data-testid="alert-metric">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="alert-query-chips">
        {metricQueryChips(p).map((c) => (
          <Chip key={c} label={c} size="small" variant="outlined" sx={{ fontFamily: 'monospace' }} />
        ))}
      </Stack>
      <LabelValues
        items={[
          ...stateFacts(alert, events.data?.events, metricTrigger(p)),
          ...(alert.createdAt !== alert.updatedAt
            ? [
                {
                  label: 'First seen',
                  value: formatDateTimeFull(new Date(alert.createdAt)),
                  testId: 'alert-fact-first-seen',
                },
              ]
            : []),
        ]}
      />
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          variant="outlined"
          component={RouterLink}
          to={paths.monitorMetric(alert.projectId, alert.monitorId)}
          data-testid="alert-view-monitor"
        >
          View monitor
        </Button>
        <Button
          size="small"
          variant="outlined"
          component={RouterLink}
          to={paths.metricsExplore(alert.projectId, exploreMetricParams(p, range))}
          data-testid="alert-explore-metric"
        >
          Explore metric
        </Button>
        {spansLink && (
          <Button
            size="small"
            variant="outlined"
            component={RouterLink}
            to={paths.spanItems(alert.projectId, matchingSpansParams(p.monitor.query, range))}
            data-testid="alert-matching-spans"
          >
            Matching spans
          </Button>
        )}
      </Stack>
      <AlertChart projectId={alert.projectId} p={p} range={range} />
    </Stack>
  );
}
