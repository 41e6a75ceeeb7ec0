import { Alert, Box, Card, CardContent, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { FOR_DURATION_CHOICES, MetricMonitorParams, type MetricAlias, type Monitor } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { metricChartOption } from '../../../components/charts/chartOptions';
import { EChart } from '../../../components/charts/EChart';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import { useDateRange } from '../../../components/date/useDateRange';
import { formatDateTime } from '../../../lib/format/dateTime';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useTimeseries } from '../../metrics/dashboards/grid/gridApi';
import { UNITS, unitLabel } from '../../metrics/dashboards/grid/units';
import { MetricsPicker } from '../../metrics/query/MetricsPicker';
import { MetricsQueryBuilder } from '../../metrics/query/MetricsQueryBuilder';
import { withAllowedRange } from '../alerts/allowedRange';
import { MonitorFormActions } from './MonitorFormActions';
import { MonitorHeader } from './MonitorHeader';
import { useMonitor, useMonitorPreview, useSaveMonitor } from './monitorsApi';
import { NotifyFields } from './NotifyFields';
import { usePageTitle } from '../../../components/shell/usePageTitle';

const PREVIEW_HEIGHT = 300;

/** Spec platform §2.9: the metric monitor form (new at monitors/new-metric, prefilled from the address; edit at monitors/:id/metric). */
export function MonitorMetricPage() {
  const projectId = useProjectIdParam();
  const { monitorId } = useParams();
  const existing = useMonitor(projectId ?? 0, monitorId);
  usePageTitle(monitorId ? (existing.data?.monitor.name ?? 'Metrics monitor') : 'New metrics monitor');
  if (projectId === undefined) return <NotFoundPage />;
  if (monitorId && existing.error) return <Alert severity="error">{existing.error.message}</Alert>;
  if (monitorId && existing.isPending) return <Skeleton variant="rectangular" height={300} />;
  return <MetricMonitorForm key={monitorId ?? 'new'} projectId={projectId} monitor={existing.data?.monitor} />;
}

/** The prefill of MonitorMetricNew: name, metric / alias lists (aliases only when as many as metrics), query. */
function usePrefill(): { name: string; metrics: MetricAlias[]; query: string } {
  const [params] = useSearchParams();
  const names = params.getAll('metric');
  const aliases = params.getAll('alias');
  return {
    name: params.get('name') ?? '',
    metrics: names.map((name, i) => ({ name, alias: aliases.length === names.length ? aliases[i] : `m${i + 1}` })),
    query: params.get('query') ?? '',
  };
}

const num = (s: string): number | null => (s.trim() === '' ? null : Number(s));

function MetricMonitorForm({ projectId, monitor }: { projectId: number; monitor?: Monitor }) {
  const prefill = usePrefill();
  const init = monitor?.type === 'metric' && 'metrics' in monitor.params ? monitor.params : undefined;
  const [name, setName] = useState(monitor?.name ?? prefill.name);
  const [metrics, setMetrics] = useState<MetricAlias[]>(init?.metrics ?? prefill.metrics);
  const [query, setQuery] = useState(init?.query ?? prefill.query);
  const [column, setColumn] = useState(init?.column ?? '');
  const [columnUnit, setColumnUnit] = useState(init?.columnUnit ?? '');
  const [minValue, setMinValue] = useState(init?.minValue?.toString() ?? '');
  const [maxValue, setMaxValue] = useState(init?.maxValue?.toString() ?? '');
  const [forDuration, setForDuration] = useState<number>(init?.forDuration ?? 5);
  const [everyone, setEveryone] = useState(monitor?.notifyEveryoneByEmail ?? true);
  const [channelIds, setChannelIds] = useState<number[]>(monitor?.channelIds ?? []);
  const [submitted, setSubmitted] = useState(false);
  const range = useDateRange({ maxDays: 90 });
  const save = useSaveMonitor(projectId, 'metric');
  const navigate = useNavigate();
  const preview = useTimeseries(projectId, { metrics, query }, range.apiParams);
  const columns = useMemo(() => [...new Set((preview.data?.timeseries ?? []).map((s) => s.metric))], [preview.data]);
  const effectiveColumn = column || columns[0] || '';
  const bounds = { min: num(minValue), max: num(maxValue) };

  const params = {
    metrics,
    query,
    column: effectiveColumn,
    columnUnit,
    forDuration,
    forDurationUnit: 'minutes',
    minValue: minValue.trim() === '' ? null : minValue,
    maxValue: maxValue.trim() === '' ? null : maxValue,
  };
  const check = MetricMonitorParams.safeParse(params);
  const issues = check.success ? [] : check.error.issues;
  const fieldError = (field: string) => (submitted ? issues.find((i) => i.path[0] === field)?.message : undefined);
  const nameErr = submitted && !name.trim() ? 'Field is required' : undefined;

  const chart = useMemo(() => {
    const data = preview.data;
    if (!data || !effectiveColumn) return undefined;
    const series = data.timeseries.filter((s) => s.metric === effectiveColumn);
    if (!series.length || !data.time.length) return undefined;
    const option = metricChartOption(
      data.time,
      series.map((s) => ({ name: s.name, unit: columnUnit || s.unit, values: s.value })),
    );
    return withAllowedRange(option, bounds);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preview.data, effectiveColumn, columnUnit, minValue, maxValue]);
  const dryRun = useMonitorPreview(projectId, check.success ? check.data : undefined, range.apiParams);

  const onSave = () => {
    setSubmitted(true);
    if (!check.success || !name.trim()) return;
    save.mutate(
      { id: monitor?.id, body: { name, notifyEveryoneByEmail: everyone, channelIds, params: check.data } },
      { onSuccess: () => void navigate(paths.monitors(projectId)) },
    );
  };

  return (
    <Stack spacing={2} data-testid="metric-monitor-form">
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <MonitorHeader projectId={projectId} type="metric" monitor={monitor} />
        <Box sx={{ flexGrow: 1 }} />
        <DateRangePicker state={range} />
      </Stack>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', md: 'nowrap' } }}>
        <Card variant="outlined" sx={{ flex: '0 0 520px', maxWidth: '100%' }}>
          <CardContent>
            <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), onSave())}>
              <TextField
                size="small"
                label="Monitor name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                error={Boolean(nameErr)}
                helperText={nameErr}
                slotProps={{ htmlInput: { 'data-testid': 'monitor-name-input' } }}
              />
              <div>
                <MetricsPicker projectId={projectId} value={metrics} onChange={setMetrics} />
                {fieldError('metrics') && (
                  <Typography variant="caption" color="error" data-testid="metrics-error">
                    {fieldError('metrics')}
                  </Typography>
                )}
              </div>
              <div>
                <MetricsQueryBuilder
                  projectId={projectId}
                  metrics={metrics}
                  query={query}
                  onChange={setQuery}
                  range={range.apiParams}
                  parts={preview.data?.query.parts}
                  disabled={!metrics.length}
                />
                {fieldError('query') && (
                  <Typography variant="caption" color="error" data-testid="query-error">
                    {fieldError('query')}
                  </Typography>
                )}
              </div>
              <Stack direction="row" spacing={1}>
                <TextField
                  select
                  size="small"
                  label="Column"
                  value={effectiveColumn}
                  onChange={(e) => setColumn(e.target.value)}
                  sx={{ flex: 1 }}
                  error={Boolean(fieldError('column'))}
                  helperText={fieldError('column') ?? 'The value the monitor checks'}
                  slotProps={{ htmlInput: { 'data-testid': 'monitor-column' } }}
                >
                  {(columns.includes(effectiveColumn) || !effectiveColumn
                    ? columns
                    : [effectiveColumn, ...columns]
                  ).map((c) => (
                    <MenuItem key={c} value={c}>
                      {c}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  size="small"
                  label="Unit"
                  value={columnUnit}
                  onChange={(e) => setColumnUnit(e.target.value)}
                  sx={{ width: 160 }}
                  slotProps={{ select: { renderValue: (v) => unitLabel(String(v)) } }}
                >
                  {UNITS.map((u) => (
                    <MenuItem key={u} value={u}>
                      {unitLabel(u)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <Stack direction="row" spacing={1}>
                <TextField
                  size="small"
                  label="Min value"
                  value={minValue}
                  onChange={(e) => setMinValue(e.target.value)}
                  error={Boolean(fieldError('minValue'))}
                  helperText={fieldError('minValue') ?? ' '}
                  slotProps={{ htmlInput: { 'data-testid': 'monitor-min', inputMode: 'decimal' } }}
                />
                <TextField
                  size="small"
                  label="Max value"
                  value={maxValue}
                  onChange={(e) => setMaxValue(e.target.value)}
                  error={Boolean(fieldError('maxValue'))}
                  helperText={fieldError('maxValue') ?? ' '}
                  slotProps={{ htmlInput: { 'data-testid': 'monitor-max', inputMode: 'decimal' } }}
                />
                <TextField
                  select
                  size="small"
                  label="For"
                  value={forDuration}
                  onChange={(e) => setForDuration(Number(e.target.value))}
                  sx={{ width: 140 }}
                  data-testid="monitor-for"
                >
                  {FOR_DURATION_CHOICES.map((n) => (
                    <MenuItem key={n} value={n}>
                      {n} {n === 1 ? 'minute' : 'minutes'}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <NotifyFields
                projectId={projectId}
                everyone={everyone}
                onEveryone={setEveryone}
                channelIds={channelIds}
                onChannelIds={setChannelIds}
              />
              <MonitorFormActions
                projectId={projectId}
                isNew={!monitor}
                saving={save.isPending}
                error={save.error?.message}
              />
            </Stack>
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ flex: '1 1 400px', minWidth: 0 }} data-testid="monitor-preview">
          <CardContent>
            <Typography variant="overline" color="text.secondary">
              {effectiveColumn || 'Preview'}
            </Typography>
            {chart ? (
              <>
                <EChart option={chart} height={PREVIEW_HEIGHT} testId="monitor-chart" />
                <Typography
                  variant="body2"
                  sx={{ mt: 1 }}
                  color={dryRun.error ? 'error' : undefined}
                  data-testid="monitor-would-fire"
                >
                  {!check.success
                    ? 'Set a min or max value to see how often the monitor would have fired.'
                    : dryRun.error
                      ? dryRun.error.message
                      : dryRun.data
                        ? `From ${formatDateTime(new Date(dryRun.data.from))} the monitor would have fired ${dryRun.data.fired} ${dryRun.data.fired === 1 ? 'time' : 'times'}${dryRun.data.firstAt ? `, first at ${formatDateTime(new Date(dryRun.data.firstAt))}` : ''}.`
                        : 'Replaying the monitor over the range...'}
                </Typography>
              </>
            ) : (
              <Box
                sx={{ height: PREVIEW_HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
                data-testid="monitor-chart-empty"
              >
                <Typography variant="h5" sx={{ color: '#BDBDBD' }}>
                  {preview.isFetching ? '' : metrics.length ? 'NO DATA' : 'Select a metric'}
                </Typography>
              </Box>
            )}
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}
