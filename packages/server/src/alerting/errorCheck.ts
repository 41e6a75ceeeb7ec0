import type { AlertEventName, ErrorMatcher, ErrorMonitorParams } from '@lantern/shared';

/**
 * Pure rules for error alerts (reference alerting §2.5–§2.7): when a recurring error notifies, and
 * which error monitors an error alert event concerns.
 */

/** The next occurrence count strictly above `previous` that notifies: 100, 1k, ..., 1M, then 2M, 4M... */
export function nextRecurringThreshold(previous: number): number {
  for (let t = 100; t <= 1_000_000; t *= 10) if (t > previous) return t;
  let t = 2_000_000;
  while (t <= previous) t *= 2;
  return t;
}

export type ErrorAlertAction =
  | { kind: 'create'; spanCount: number }
  /** Count updated; `notify` when a threshold was crossed or the alert was closed (it reopens). */
  | { kind: 'update'; spanCount: number; notify: boolean };

export function decideErrorAlert(
  existing: { state: 'open' | 'closed'; spanCount: number } | null,
  newSpans: number,
): ErrorAlertAction {
  if (!existing) return { kind: 'create', spanCount: newSpans };
  const spanCount = existing.spanCount + newSpans;
  const notify = existing.state === 'closed' || spanCount >= nextRecurringThreshold(existing.spanCount);
  return { kind: 'update', spanCount, notify };
}

/**
 * All matchers hold (AND; none = everything). A missing attribute makes `=` and `!=` false alike,
 * as in the reference.
 */
export function matchersHold(
  matchers: readonly Pick<ErrorMatcher, 'attr' | 'op' | 'value'>[],
  attrs: Record<string, string>,
): boolean {
  return matchers.every((m) => {
    const v = attrs[m.attr];
    if (v === undefined) return false;
    return m.op === '=' ? v === m.value : m.op === '!=' ? v !== m.value : false;
  });
}

/**
 * Whether an error monitor wants an event. Fixes the reference quirk where the recurring flag was
 * used for every event: `created` follows notifyOnNewErrors, `recurring` notifyOnRecurringErrors,
 * and manual state changes either flag.
 */
export function errorMonitorWants(
  params: ErrorMonitorParams,
  event: AlertEventName,
  attrs: Record<string, string>,
): boolean {
  const flag =
    event === 'created'
      ? params.notifyOnNewErrors
      : event === 'recurring'
        ? params.notifyOnRecurringErrors
        : params.notifyOnNewErrors || params.notifyOnRecurringErrors;
  return flag && matchersHold(params.matchers, attrs);
}
