import type { MetricMonitorParams } from '@lantern/shared';
import { checkSeries, decideMetricAlert, forDurationPoints, windowPoints, type LastAlert } from './metricCheck';

/**
 * A dry run of the metric evaluator over past minutes: the same pure checks and alert decisions the
 * scheduler makes each minute (metricCheck.ts), replayed minute by minute over a series, to tell a
 * user how often a monitor would have fired in a range before they save it. No alerts are written.
 */
export interface DryRun {
  /** Alerts the monitor would have created or reopened. */
  fired: number;
  /** When the first of them would have fired (ms), null when none. */
  firstAt: number | null;
}

export function replaySeries(
  values: readonly (number | null)[],
  params: Pick<MetricMonitorParams, 'forDuration' | 'forDurationUnit' | 'minValue' | 'maxValue'>,
  fromMs: number,
): DryRun {
  const forPoints = forDurationPoints(params.forDuration, params.forDurationUnit);
  const win = windowPoints(params);
  const bounds = { min: params.minValue, max: params.maxValue };
  let last: LastAlert | null = null;
  let fired = 0;
  let firstAt: number | null = null;
  for (let end = 1; end <= values.length; end++) {
    const now = new Date(fromMs + end * 60_000);
    const action = decideMetricAlert(
      checkSeries(values.slice(Math.max(0, end - win), end), forPoints, bounds),
      last,
      now,
    );
    if (action.kind === 'create' || action.kind === 'reopen') {
      fired++;
      firstAt ??= now.getTime();
      last = { state: 'open', updatedAt: now };
    } else if (action.kind === 'still-firing') last = { state: 'open', updatedAt: now };
    else if (action.kind === 'close') last = { state: 'closed', updatedAt: now };
  }
  return { fired, firstAt };
}
