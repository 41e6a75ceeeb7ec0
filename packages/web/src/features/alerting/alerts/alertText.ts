import type { Alert, ErrorAlertParams, Metric, MetricAlertParams } from '@lantern/shared';
import { formatUnit } from '../../../lib/format/number';
import { fixedAddress } from '../../../lib/time/dateRange';

/**
 * Words shown for an alert in the list and on its card (reference frontend §1.3.14, alerting
 * §2.8): the metric trigger, the error's occurrences, and the query chips of a metric alert.
 */
export const isMetricParams = (a: Alert): a is Alert & { params: MetricAlertParams } =>
  a.type === 'metric' && 'bounds' in a.params;
export const isErrorParams = (a: Alert): a is Alert & { params: ErrorAlertParams } =>
  a.type === 'error' && 'spanCount' in a.params;

/**
 * The unit a monitor's series is drawn in, the same on its form's preview and on its alert's card:
 * the monitor's column unit (chosen on the form, saved in params), else the series' own unit.
 */
export const monitorSeriesUnit = (columnUnit: string, seriesUnit: string): string => columnUnit || seriesUnit;

/** "97% more than 90%" / "3 less than 5"; '' when the series is back in range. */
export function metricTrigger(p: MetricAlertParams): string {
  const unit = p.monitor.columnUnit;
  const value = p.outlier === null ? 'no value' : formatUnit(p.outlier, unit);
  if (p.firing === 1 && p.bounds.max !== null) return `${value} more than ${formatUnit(p.bounds.max, unit)}`;
  if (p.firing === -1 && p.bounds.min !== null) return `${value} less than ${formatUnit(p.bounds.min, unit)}`;
  return '';
}

export function occurrences(p: ErrorAlertParams): string {
  return `${p.spanCount} ${p.spanCount === 1 ? 'occurrence' : 'occurrences'}`;
}

/** The monitor query as chips: its parts, then `from <metric> as $<alias>, ...`. */
export function metricQueryChips(p: MetricAlertParams): string[] {
  const parts = p.monitor.query
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);
  const from = p.monitor.metrics.map((m) => `${m.name} as $${m.alias}`).join(', ');
  return from ? [...parts, `from ${from}`] : parts;
}

/** The `where` parts of a monitor query. */
export function whereParts(query: string): string[] {
  return query
    .split('|')
    .map((s) => s.trim())
    .filter((s) => /^where\s/i.test(s));
}

/** The span list query of 'Matching spans' (reference frontend §1.2): rates and percentiles, then the where parts if any. */
export function matchingSpansQuery(query: string): string {
  return ['.count_per_min', '.error_rate', '{p50,p90,p99}(.duration)', ...whereParts(query)].join(' | ');
}

/**
 * Whether a metric alert has spans to show: every metric of its monitor is derived from spans
 * (`fromSpans` in the catalogue), so the monitor query's where parts name span attributes. Over a
 * metric sent as a metric (a queue's depth) the link listed every span of the range, unfiltered.
 */
export function hasMatchingSpans(p: MetricAlertParams, described: readonly Pick<Metric, 'name' | 'fromSpans'>[]) {
  const derived = new Set(described.filter((m) => m.fromSpans).map((m) => m.name));
  return p.monitor.metrics.length > 0 && p.monitor.metrics.every((m) => derived.has(m.name));
}

/**
 * The span list's address of 'Matching spans', shown for a metric alert over metrics derived from
 * spans (hasMatchingSpans; spec platform §2.6): the spans of all systems over the card's time
 * range (the chart's), narrowed by the monitor query's where parts when it has some.
 */
export function matchingSpansParams(
  query: string,
  range: { time_gte: string; time_lt: string },
): { system: string; query: string; time_gte: string; time_dur: string } {
  const gte = Date.parse(range.time_gte);
  const lt = Date.parse(range.time_lt);
  return { system: 'all', query: matchingSpansQuery(query), ...fixedAddress(gte, lt) };
}

/**
 * The metrics explorer's address of 'Explore metric' on a metric alert: the alert's metrics and
 * query (the monitor's, narrowed to the alert's series) over the card's time range, to look
 * around the alert (other group-bys, a longer range) without touching the monitor.
 */
export function exploreMetricParams(
  p: MetricAlertParams,
  range: { time_gte: string; time_lt: string },
): { metric: string[]; alias: string[]; query: string; time_gte: string; time_dur: string } {
  const gte = Date.parse(range.time_gte);
  const lt = Date.parse(range.time_lt);
  return {
    metric: p.monitor.metrics.map((m) => m.name),
    alias: p.monitor.metrics.map((m) => m.alias),
    query: p.monitor.query,
    ...fixedAddress(gte, lt),
  };
}
