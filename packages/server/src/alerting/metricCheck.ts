import type { ForDurationUnit, MetricMonitorParams, MonitorState } from '@lantern/shared';

/**
 * The pure metric-monitor evaluator (reference alerting §2.3–§2.4, with its flagged quirks fixed):
 * one series of per-minute values + the series' last alert + now -> what to do with the alert.
 * No I/O, no clock: the scheduler supplies everything.
 *
 * Decisions that differ from the reference, and why:
 * - `forDurationUnit` is honoured (hours = 60 one-minute points), the reference ignored it.
 * - A minute without data is a gap, not a zero: it never counts as an outlier (a zero could trip a
 *   minValue bound), and a gap inside the forDuration window means "not proven firing".
 * - Up to 5 trailing minutes without data are not yet reported (ingest lag), so the window ends at
 *   the last minute that has a value. Past that the series has stopped reporting: its gaps are
 *   not outliers, so an open alert closes forDuration + 5 minutes after its last outlier instead of
 *   firing on its last value until the whole hour is empty. A series with no value in the whole
 *   window is "no data".
 */

/** Trailing minutes without data taken as ingest lag rather than a series that stopped. */
export const MAX_REPORT_LAG_POINTS = 5;

/** Alerts older than this (by updated_at) are history: the next episode creates a new alert. */
export const RECENT_ALERT_MS = 8 * 3600_000;
/** While a condition persists, "still firing" is repeated at most this often. */
export const REPEAT_FIRING_MS = 3 * 3600_000;
/** A firing alert closes only after this many extra minutes fully back in bounds. */
export const RECOVERY_EXTRA_POINTS = 5;
/** The evaluation window is at least an hour of one-minute points. */
export const MIN_WINDOW_POINTS = 60;

export type Firing = -1 | 0 | 1;

export function forDurationPoints(forDuration: number, unit: ForDurationUnit): number {
  return forDuration * (unit === 'hours' ? 60 : 1);
}

/** How many one-minute points the scheduler asks the metrics engine for. */
export function windowPoints(params: Pick<MetricMonitorParams, 'forDuration' | 'forDurationUnit'>): number {
  return Math.max(
    MIN_WINDOW_POINTS,
    forDurationPoints(params.forDuration, params.forDurationUnit) + RECOVERY_EXTRA_POINTS + 1,
  );
}

export interface Bounds {
  min: number | null;
  max: number | null;
}

export interface SeriesCheck {
  /** No value at all in the window. */
  noData: boolean;
  /** 1 = stayed above max for the whole forDuration, -1 = below min, 0 = not firing. */
  firing: Firing;
  /** The latest value of the firing window (null when not firing). */
  outlier: number | null;
  /** Index (into the input values) of the first point of the firing window; -1 when not firing. */
  windowStart: number;
  /** No outlier among the last forDuration + 5 reported points: an open alert may auto-close. */
  recovered: boolean;
}

export function outlierOf(x: number | null, b: Bounds): Firing {
  if (x === null || Number.isNaN(x)) return 0;
  if (b.min !== null && x < b.min) return -1;
  if (b.max !== null && x > b.max) return 1;
  return 0;
}

/** Checks one series: `values[i]` is minute i of the window, null when there was no data. */
export function checkSeries(values: readonly (number | null)[], forPoints: number, bounds: Bounds): SeriesCheck {
  const gap = (v: number | null) => v === null || Number.isNaN(v);
  if (values.every(gap)) return { noData: true, firing: 0, outlier: null, windowStart: -1, recovered: true };
  let end = values.length;
  for (let lag = 0; lag < MAX_REPORT_LAG_POINTS && gap(values[end - 1]); lag++) end--;
  // Stopped reporting: its silence counts from the window's end, in which it never fired.
  if (gap(values[end - 1])) end = values.length;

  const recentFrom = Math.max(0, end - forPoints - RECOVERY_EXTRA_POINTS);
  let recovered = true;
  for (let i = recentFrom; i < end; i++) if (outlierOf(values[i], bounds) !== 0) recovered = false;

  const notFiring: SeriesCheck = { noData: false, firing: 0, outlier: null, windowStart: -1, recovered };
  const start = end - forPoints;
  if (forPoints < 1 || start < 0) return notFiring;
  const direction = outlierOf(values[end - 1], bounds);
  if (direction === 0) return notFiring;
  for (let i = start; i < end; i++) {
    const v = values[i];
    // A gap inside the window breaks it: the value was not seen out of bounds the whole time.
    if (gap(v) || outlierOf(v, bounds) !== direction) return notFiring;
  }
  return { noData: false, firing: direction, outlier: values[end - 1], windowStart: start, recovered };
}

export interface LastAlert {
  state: 'open' | 'closed';
  updatedAt: Date;
}

export type AlertAction =
  | { kind: 'none' }
  /** A new alert for a new episode: event `created`. */
  | { kind: 'create' }
  /** A closed (e.g. closed by a user) recent alert still fires: reopen, event `state-changed`. */
  | { kind: 'reopen' }
  /** Open for a long time and still firing: repeat, event `state-changed` with the metric params. */
  | { kind: 'still-firing' }
  /** Back in bounds for forDuration + 5 minutes, or no data at all: auto-close. */
  | { kind: 'close' };

/** What to do with a series' alert. `last` is its most recent alert, whatever its age. */
export function decideMetricAlert(check: SeriesCheck, last: LastAlert | null, now: Date): AlertAction {
  const recent = last && now.getTime() - last.updatedAt.getTime() < RECENT_ALERT_MS ? last : null;
  if (check.firing === 0) {
    if (recent?.state === 'open' && (check.noData || check.recovered)) return { kind: 'close' };
    return { kind: 'none' };
  }
  if (!recent) return { kind: 'create' };
  if (recent.state === 'closed') return { kind: 'reopen' };
  if (now.getTime() - recent.updatedAt.getTime() >= REPEAT_FIRING_MS) return { kind: 'still-firing' };
  return { kind: 'none' };
}

/** A monitor's state after a check: no series with data -> no-data, any open alert -> firing. */
export function nextMonitorState(seriesCount: number, anyOpenAlert: boolean): MonitorState {
  if (seriesCount === 0) return 'no-data';
  return anyOpenAlert ? 'firing' : 'active';
}
