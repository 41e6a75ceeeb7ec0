import { createHash } from 'node:crypto';
import type { MetricAlertEventParams, MetricAlertParams, MetricMonitorParams, MonitorState } from '@lantern/shared';
import type { Logger } from 'pino';
import type { AlertsStore } from './alerts.store';
import { emitAlertEvent, type EventDeps } from './alertEvents';
import type { AlertingDb } from './db';
import {
  checkSeries,
  decideMetricAlert,
  forDurationPoints,
  nextMonitorState,
  RECENT_ALERT_MS,
  windowPoints,
  type SeriesCheck,
} from './metricCheck';
import { MetricQueryError, NO_ENGINE_REASON, type MetricQueryRunner, type MetricSeries } from './metricQueryRunner';
import type { MonitorRow, MonitorsStore } from './monitors.store';

/**
 * The shell around the pure metric evaluator for one monitor at tick T (a whole minute): asks the
 * metrics engine for the trailing window, decides per series, and applies each decision with its
 * event in one transaction (compare-and-set on the alert state, dedup key per 8-hour slot), so a
 * repeated tick after a crash changes nothing twice.
 */
export interface MetricEvaluatorDeps extends EventDeps {
  db: AlertingDb;
  alerts: AlertsStore;
  monitors: MonitorsStore;
  runner: MetricQueryRunner | null;
  log: Logger;
}

export async function evaluateMetricMonitor(
  deps: MetricEvaluatorDeps,
  monitor: MonitorRow,
  tick: Date,
): Promise<MonitorState> {
  const setState = async (state: MonitorState, reason: string) => {
    await deps.monitors.casCheckResult(monitor.id, monitor.state, state, reason, tick);
    return state;
  };
  if (!deps.runner) return setState('no-data', NO_ENGINE_REASON);

  const params = JSON.parse(monitor.params) as MetricMonitorParams;
  const points = windowPoints(params);
  const from = new Date(tick.getTime() - points * 60_000);
  let series: MetricSeries[];
  try {
    series = await deps.runner.series({
      projectId: monitor.project_id,
      metrics: params.metrics,
      query: params.query,
      column: params.column,
      from,
      to: tick,
    });
  } catch (err) {
    if (err instanceof MetricQueryError && err.kind === 'unknown_metric') return setState('failed', err.message);
    deps.log.warn({ err, monitorId: monitor.id }, 'metric monitor query failed');
    return setState(monitor.state as MonitorState, `query failed: ${(err as Error).message}`);
  }

  // A grouped series with no datapoint left in the window (a host gone) is not returned at all:
  // its open alert takes the no-data path (auto-close) like an empty series.
  const returned = new Set(series.map((s) => hashAttrs(s.attrs)));
  for (const gone of await deps.alerts.openMetricSeries(monitor.id)) {
    if (!returned.has(gone.attrs_hash))
      series.push({
        attrs: JSON.parse(gone.attrs) as Record<string, string>,
        values: new Array<null>(points).fill(null),
      });
  }
  const forPoints = forDurationPoints(params.forDuration, params.forDurationUnit);
  let anyOpen = false;
  let withData = 0; // an ungrouped query yields its one series even when the window is empty
  for (const s of series) {
    const check = checkSeries(s.values, forPoints, { min: params.minValue, max: params.maxValue });
    const open = await applySeries(deps, monitor, params, s, check, from, tick);
    anyOpen ||= open;
    if (!check.noData) withData++;
  }
  return setState(nextMonitorState(withData, anyOpen), '');
}

/** Applies the decision for one series; true when the series ends the tick with an open alert. */
async function applySeries(
  deps: MetricEvaluatorDeps,
  monitor: MonitorRow,
  params: MetricMonitorParams,
  s: MetricSeries,
  check: SeriesCheck,
  from: Date,
  tick: Date,
): Promise<boolean> {
  const attrsHash = hashAttrs(s.attrs);
  return deps.db.transaction().execute(async (trx) => {
    const last = await deps.alerts.lastMetricAlert(trx, monitor.id, attrsHash);
    const action = decideMetricAlert(
      check,
      last ? { state: last.state as 'open' | 'closed', updatedAt: new Date(last.updated_at) } : null,
      tick,
    );
    const alertParams: MetricAlertParams = {
      firing: check.firing,
      outlier: check.outlier,
      minutes: forDurationPoints(params.forDuration, params.forDurationUnit),
      bounds: { min: params.minValue, max: params.maxValue },
      monitor: {
        metrics: params.metrics,
        query: seriesQuery(params.query, s.attrs),
        column: params.column,
        columnUnit: params.columnUnit,
      },
    };
    const stillOpen = last?.state === 'open' && tick.getTime() - new Date(last.updated_at).getTime() < RECENT_ALERT_MS;
    switch (action.kind) {
      case 'none':
        return stillOpen;
      case 'create': {
        const alertTime = new Date(from.getTime() + check.windowStart * 60_000);
        const alert = await deps.alerts.insert(trx, {
          project_id: monitor.project_id,
          dedup_key: `metric:${monitor.id}:${attrsHash}:${Math.floor(tick.getTime() / RECENT_ALERT_MS)}`,
          name: `${monitor.name}: ${seriesName(params.column, s.attrs)}`,
          state: 'open',
          type: 'metric',
          monitor_id: monitor.id,
          trackable_model: '',
          trackable_id: '',
          attrs: JSON.stringify(s.attrs),
          attrs_hash: attrsHash,
          params: JSON.stringify(alertParams),
          created_at: alertTime.toISOString(),
          updated_at: tick.toISOString(),
        });
        if (alert)
          await emitAlertEvent(
            trx,
            deps,
            { alert, name: 'created', params: alertParams, userId: null, createdAt: alertTime, spanAttrs: {} },
            tick,
          );
        return true;
      }
      case 'reopen':
      case 'still-firing': {
        const set = { state: 'open', params: JSON.stringify(alertParams), updated_at: tick.toISOString() };
        // The event carries the alert params (reference §2.10); a reopen of an alert a user closed
        // says so, for the history. The alert's own params and the notifications are unchanged.
        const eventParams: MetricAlertEventParams =
          action.kind === 'reopen' ? { ...alertParams, reopened: true } : alertParams;
        // Stamped when it happens (not at the minute looked at, which is older than a user's close
        // of a moment ago: the reopen came first in the history and in the webhook's createdAt).
        if (await deps.alerts.casUpdate(trx, last!.id, last!.state, set))
          await emitAlertEvent(
            trx,
            deps,
            {
              alert: { ...last!, ...set },
              name: 'state-changed',
              params: eventParams,
              userId: null,
              createdAt: deps.now(),
              spanAttrs: {},
            },
            tick,
          );
        return true;
      }
      case 'close': {
        const set = { state: 'closed', updated_at: tick.toISOString() };
        if (await deps.alerts.casUpdate(trx, last!.id, 'open', set))
          await emitAlertEvent(
            trx,
            deps,
            {
              alert: { ...last!, ...set },
              name: 'state-changed',
              params: { state: 'closed', oldState: 'open' },
              userId: null,
              createdAt: deps.now(),
              spanAttrs: {},
            },
            tick,
          );
        return false;
      }
    }
  });
}

export function hashAttrs(attrs: Record<string, string>): string {
  const sorted = Object.keys(attrs)
    .sort()
    .map((k) => [k, attrs[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16);
}

/** `cpu_util{host.name=web1}` (reference alerting §2.4). */
export function seriesName(column: string, attrs: Record<string, string>): string {
  const keys = Object.keys(attrs).sort();
  return keys.length ? `${column}{${keys.map((k) => `${k}=${attrs[k]}`).join(',')}}` : column;
}

/** The monitor query narrowed to one series: `<query> | where k = "v"` per attribute. */
export function seriesQuery(query: string, attrs: Record<string, string>): string {
  const keys = Object.keys(attrs).sort();
  return [query, ...keys.map((k) => `where ${k} = ${JSON.stringify(attrs[k])}`)].join(' | ');
}
