import {
  Alert,
  Box,
  Card,
  CardContent,
  InputAdornment,
  MenuItem,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  FOR_DURATION_CHOICES,
  MetricMonitorParams,
  type ColumnMap,
  type ForDurationUnit,
  type MetricAlias,
  type Monitor,
} from '@lantern/shared';
import { useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { NotFoundPage } from '../../../app/NotFoundPage';
import { metricChartOption } from '../../../components/charts/chartOptions';
import { TableLegend, type LegendValue } from '../../../components/charts/ChartLegend';
import { EChart } from '../../../components/charts/EChart';
import { MONITOR_LEGEND_SORT, sortLegendSeries, type LegendSort } from '../../../components/charts/legendSort';
import { assignColors } from '../../../components/charts/palette';
import { usePager } from '../../../components/Pager';
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
import { monitorSeriesUnit } from '../alerts/alertText';
import { BoundField } from './BoundField';
import { MonitorFormActions } from './MonitorFormActions';
import { MonitorHeader } from './MonitorHeader';
import {
  columnHint,
  defaultUnit,
  formatObservedIn,
  observedRange,
  parseBound,
  parseColumnMap,
  singleColumn,
  unitReading,
} from './monitorFormRules';
import { isMonitorNotFound, useMonitor, useMonitorPreview, useSaveMonitor } from './monitorsApi';
import { NotifyFields } from './NotifyFields';
import { usePageTitle } from '../../../components/shell/usePageTitle';

const PREVIEW_HEIGHT = 300;
/** From this width the form and its preview sit side by side (the theme's lg is 1536, too wide for a laptop). */
const SIDE_BY_SIDE = '@media (min-width: 1200px)';
/**
 * The preview's legend table (spec platform §2.9): name, avg, last, min, max; 9 rows a page, sorted
 * by a header click, max largest first at the start.
 */
const LEGEND_PAGE = 9;
const LEGEND_VALUES: LegendValue[] = ['avg', 'last', 'min', 'max'];

/** Spec platform §2.9: the metric monitor form (new at monitors/new-metric, prefilled from the address; edit at monitors/:id/metric). */
export function MonitorMetricPage() {
  const projectId = useProjectIdParam();
  const { monitorId } = useParams();
  const existing = useMonitor(projectId ?? 0, monitorId);
  usePageTitle(monitorId ? (existing.data?.monitor.name ?? 'Metrics monitor') : 'New metrics monitor');
  if (projectId === undefined) return <NotFoundPage />;
  // An unknown id, or the id of an error monitor: no metric monitor here.
  if (monitorId && (isMonitorNotFound(existing.error) || (existing.data && existing.data.monitor.type !== 'metric')))
    return <NotFoundPage />;
  if (monitorId && existing.error) return <Alert severity="error">{existing.error.message}</Alert>;
  if (monitorId && existing.isPending) return <Skeleton variant="rectangular" height={300} />;
  return <MetricMonitorForm key={monitorId ?? 'new'} projectId={projectId} monitor={existing.data?.monitor} />;
}

/**
 * The prefill of MonitorMetricNew: name, metric / alias lists (aliases only when as many as metrics),
 * query, and columns (a dashboard panel's column map as JSON: the monitored column's unit comes from it).
 */
function usePrefill(): { name: string; metrics: MetricAlias[]; query: string; columns: ColumnMap } {
  const [params] = useSearchParams();
  const names = params.getAll('metric');
  const aliases = params.getAll('alias');
  return {
    name: params.get('name') ?? '',
    metrics: names.map((name, i) => ({ name, alias: aliases.length === names.length ? aliases[i] : `m${i + 1}` })),
    query: params.get('query') ?? '',
    columns: parseColumnMap(params.get('columns')),
  };
}

const durationLabel = (n: number, unit: ForDurationUnit) => `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;

function MetricMonitorForm({ projectId, monitor }: { projectId: number; monitor?: Monitor }) {
  const prefill = usePrefill();
  const init = monitor?.type === 'metric' && 'metrics' in monitor.params ? monitor.params : undefined;
  const [name, setName] = useState(monitor?.name ?? prefill.name);
  const [metrics, setMetrics] = useState<MetricAlias[]>(init?.metrics ?? prefill.metrics);
  const [query, setQuery] = useState(init?.query ?? prefill.query);
  // null until chosen: a new monitor takes the prefilled column map's unit for its column.
  const [unitChoice, setUnitChoice] = useState<string | null>(init ? init.columnUnit : null);
  const [minValue, setMinValue] = useState(init?.minValue?.toString() ?? '');
  const [maxValue, setMaxValue] = useState(init?.maxValue?.toString() ?? '');
  const [forDuration, setForDuration] = useState<number>(init?.forDuration ?? 5);
  // Minutes unless the monitor was made with hours (the API allows both; spec platform §3): kept as it is.
  const forDurationUnit: ForDurationUnit = init?.forDurationUnit ?? 'minutes';
  const [everyone, setEveryone] = useState(monitor?.notifyEveryoneByEmail ?? true);
  const [channelIds, setChannelIds] = useState<number[]>(monitor?.channelIds ?? []);
  const [submitted, setSubmitted] = useState(false);
  const range = useDateRange({ maxDays: 90 });
  const save = useSaveMonitor(projectId, 'metric');
  const navigate = useNavigate();
  const preview = useTimeseries(projectId, { metrics, query }, range.apiParams);
  // The query's columns, once its answer is known without a part error (those show under the chips).
  const columns =
    metrics.length && preview.data && !preview.data.query.parts.some((p) => p.error) ? preview.data.columns : undefined;
  const hint = columnHint(columns);
  // The monitor checks the query's one column (spec platform §5); an existing one keeps its column until the preview answers.
  const effectiveColumn = columns ? singleColumn(columns) : (init?.column ?? '');
  const columnUnit = unitChoice ?? defaultUnit(prefill.columns, effectiveColumn, columns);
  // The bounds as typed in the column's unit ("20%" of a utilization is 0.2); what is refused says why at its field.
  const minBound = parseBound(minValue, columnUnit);
  const maxBound = parseBound(maxValue, columnUnit);
  const bounds = { min: minBound.value, max: maxBound.value };
  const pickMetrics = (next: MetricAlias[], nextQuery: string) => {
    setQuery(nextQuery);
    setMetrics(next);
  };

  const params = {
    metrics,
    query,
    column: effectiveColumn,
    columnUnit,
    forDuration,
    forDurationUnit,
    // A refused value goes as typed: the check below fails on it and nothing is sent.
    minValue: minBound.error ? minValue : minBound.value,
    maxValue: maxBound.error ? maxValue : maxBound.value,
  };
  const check = MetricMonitorParams.safeParse(params);
  const issues = check.success ? [] : check.error.issues;
  const fieldError = (field: string) => (submitted ? issues.find((i) => i.path[0] === field)?.message : undefined);
  const nameErr = submitted && !name.trim() ? 'Field is required' : undefined;

  // The monitored column's series (spec platform §2.9).
  const series = useMemo(() => {
    const data = preview.data;
    if (!data || !effectiveColumn || !data.time.length) return [];
    return data.timeseries
      .filter((s) => s.metric === effectiveColumn)
      .map((s) => ({ name: s.name, unit: monitorSeriesUnit(columnUnit, s.unit), values: s.value }));
  }, [preview.data, effectiveColumn, columnUnit]);
  const observed = useMemo(() => observedRange(series), [series]);
  // The legend's order, applied before paging: the page plotted is the top of the sort (at first the
  // largest max, the series nearest a max bound), not the first series the server happened to send.
  const [legendSort, setLegendSort] = useState<LegendSort>(MONITOR_LEGEND_SORT);
  // Colours go in legend order: the nine of a page (the one plotted) are the palette's nine, never a repeat.
  const sorted = useMemo(() => {
    const order = sortLegendSeries(series, legendSort);
    const colors = assignColors(order.map(() => undefined));
    return order.map((s, i) => ({ ...s, color: colors[i] }));
  }, [series, legendSort]);
  const legendPager = usePager(sorted.length, LEGEND_PAGE);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [hovered, setHovered] = useState<string | undefined>();
  const chart = useMemo(() => {
    // Only the legend's current page (in its order) is plotted, less the series clicked off.
    const plotted = sorted.slice(legendPager.start, legendPager.end).filter((s) => !hidden.has(s.name));
    if (!plotted.length) return undefined;
    return withAllowedRange(metricChartOption(preview.data?.time ?? [], plotted), bounds);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sorted, legendPager.start, legendPager.end, hidden, minValue, maxValue]);
  const dryRun = useMonitorPreview(projectId, check.success ? check.data : undefined, range.apiParams);
  // Why Save cannot send the form yet although its fields may be fine (spec platform §5: exactly one
  // column); the hint covers a query of none or several columns.
  const columnsWait = !metrics.length
    ? undefined
    : preview.error
      ? `The query's columns are unknown: ${preview.error.message}`
      : preview.data?.query.parts.some((p) => p.error)
        ? 'Fix the query errors under its parts to save the monitor.'
        : columns === undefined || preview.isFetching
          ? "Waiting for the query's columns; save again in a moment."
          : undefined;
  const saveNote = submitted && columns?.length !== 1 ? columnsWait : undefined;
  const unitSuffix = columnUnit ? <InputAdornment position="end">{unitLabel(columnUnit)}</InputAdornment> : undefined;

  const onSave = () => {
    setSubmitted(true);
    // A valid form and exactly one column (spec platform §5): otherwise nothing is sent.
    if (!check.success || !name.trim() || columns?.length !== 1) return;
    save.mutate(
      { id: monitor?.id, body: { name, notifyEveryoneByEmail: everyone, channelIds, params: check.data } },
      { onSuccess: () => void navigate(paths.monitors(projectId)) },
    );
  };

  return (
    <Stack spacing={2} data-testid="metric-monitor-form">
      {/* The header's facts may take a line of their own on a narrow window; the picker never wraps. */}
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <MonitorHeader projectId={projectId} type="metric" monitor={monitor} />
        <Box sx={{ flexGrow: 1 }} />
        <Box sx={{ flexShrink: 0, whiteSpace: 'nowrap' }} data-testid="monitor-range">
          <DateRangePicker state={range} />
        </Box>
      </Stack>
      {/* Side by side from 1200 px: below that the 520 px form leaves the preview's legend too little room. */}
      <Box
        sx={{
          display: 'flex',
          gap: 2,
          alignItems: 'flex-start',
          flexWrap: 'wrap',
          [SIDE_BY_SIDE]: { flexWrap: 'nowrap' },
        }}
        data-testid="monitor-form-layout"
      >
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
                <MetricsPicker projectId={projectId} value={metrics} query={query} onChange={pickMetrics} />
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
                  <Typography variant="caption" color="error" component="div" data-testid="query-error">
                    {fieldError('query')}
                  </Typography>
                )}
                {hint && (
                  <Typography
                    variant="caption"
                    color={submitted ? 'error' : 'warning.dark'}
                    component="div"
                    data-testid="monitor-column-hint"
                  >
                    {hint}
                  </Typography>
                )}
              </div>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  size="small"
                  label="Column"
                  value={effectiveColumn}
                  sx={{ flex: 1 }}
                  helperText="The query's one column: the value the monitor checks"
                  slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'monitor-column' } }}
                />
                <TextField
                  select
                  size="small"
                  label="Unit"
                  value={columnUnit}
                  onChange={(e) => setUnitChoice(e.target.value)}
                  sx={{ width: 160 }}
                  slotProps={{
                    // 'none' is shown for the empty unit too, not an empty box.
                    select: { renderValue: (v) => unitLabel(String(v)), displayEmpty: true },
                    inputLabel: { shrink: true },
                    htmlInput: { 'data-testid': 'monitor-unit' },
                  }}
                >
                  {((UNITS as readonly string[]).includes(columnUnit) ? UNITS : [...UNITS, columnUnit]).map((u) => (
                    <MenuItem key={u} value={u}>
                      {unitLabel(u)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              <Stack direction="row" spacing={1}>
                <BoundField
                  which="min"
                  value={minValue}
                  onChange={setMinValue}
                  error={minBound.error ?? fieldError('minValue')}
                  unitSuffix={unitSuffix}
                  observed={
                    observed.min === null
                      ? undefined
                      : `${formatObservedIn(observed.min, columnUnit)} (zeroes excluded)`
                  }
                  reading={bounds.min === null ? undefined : unitReading(bounds.min, columnUnit)}
                />
                <BoundField
                  which="max"
                  value={maxValue}
                  onChange={setMaxValue}
                  error={maxBound.error ?? fieldError('maxValue')}
                  unitSuffix={unitSuffix}
                  observed={observed.max === null ? undefined : formatObservedIn(observed.max, columnUnit)}
                  reading={bounds.max === null ? undefined : unitReading(bounds.max, columnUnit)}
                />
              </Stack>
              <TextField
                select
                size="small"
                label="For"
                value={forDuration}
                onChange={(e) => setForDuration(Number(e.target.value))}
                sx={{ width: 200 }}
                data-testid="monitor-for"
              >
                {FOR_DURATION_CHOICES.map((n) => (
                  <MenuItem key={n} value={n}>
                    {durationLabel(n, forDurationUnit)}
                  </MenuItem>
                ))}
              </TextField>
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
                note={saveNote}
              />
            </Stack>
          </CardContent>
        </Card>
        <Card
          variant="outlined"
          sx={{ flex: '1 1 100%', minWidth: 0, [SIDE_BY_SIDE]: { flex: '1 1 400px' } }}
          data-testid="monitor-preview"
        >
          <CardContent>
            <Typography variant="overline" color="text.secondary">
              {effectiveColumn || 'Preview'}
            </Typography>
            {chart ? (
              <>
                <EChart option={chart} height={PREVIEW_HEIGHT} highlight={hovered} testId="monitor-chart" />
                <Typography
                  variant="body2"
                  sx={{ mt: 1 }}
                  color={dryRun.error ? 'error' : undefined}
                  data-testid="monitor-would-fire"
                >
                  {!check.success
                    ? dryRunBlocker(issues[0]?.message)
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
                {/* A query of several columns (or none) has nothing to plot: the hint says why. */}
                {preview.error ? (
                  <Typography variant="body1" color="error" sx={{ px: 4, textAlign: 'center' }}>
                    {preview.error.message}
                  </Typography>
                ) : hint && !preview.isFetching ? (
                  <Typography variant="body1" color="text.secondary" sx={{ px: 4, textAlign: 'center' }}>
                    {hint}
                  </Typography>
                ) : (
                  <Typography variant="h5" sx={{ color: '#BDBDBD' }}>
                    {preview.isFetching ? '' : metrics.length ? 'NO DATA' : 'Select a metric'}
                  </Typography>
                )}
              </Box>
            )}
            {/* Nothing to say before a metric is picked, nor while its series are on their way. */}
            {!metrics.length || (preview.isFetching && !series.length) ? null : series.length ? (
              <Box sx={{ mt: 1 }}>
                <TableLegend
                  series={sorted}
                  values={LEGEND_VALUES}
                  hidden={hidden}
                  onToggle={(n) =>
                    setHidden((prev) => {
                      const next = new Set(prev);
                      if (!next.delete(n)) next.add(n);
                      return next;
                    })
                  }
                  onHover={setHovered}
                  maxLength={40}
                  pager={legendPager}
                  sort={legendSort}
                  onSort={(next) => {
                    setLegendSort(next);
                    // The top of the new order: the page that is plotted.
                    legendPager.setPage(1);
                  }}
                />
              </Box>
            ) : (
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ mt: 1, textAlign: 'center' }}
                data-testid="monitor-legend-empty"
              >
                There are no metrics
              </Typography>
            )}
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}

/** Why the dry-run line cannot replay the monitor: the form's first problem (spec platform §5 messages). */
function dryRunBlocker(issue: string | undefined): string {
  if (!issue || issue === 'At least min value is required')
    return 'Set a min or max value to see how often the monitor would have fired.';
  return `Fix the form to see how often the monitor would have fired: ${issue}.`;
}
