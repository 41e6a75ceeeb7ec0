import type { AlertEvent } from '@lantern/shared';

/**
 * What happened, in words, for the alert's history: "Created", "Closed by Ann", "Reopened by Ann",
 * "Recurring: 12 occurrences", "Still firing", or "Reopened: still firing" when the evaluator
 * reopened a metric alert a user had closed while it was still firing; "Resolved: back to normal"
 * when the evaluator closed it (only metric alerts close by themselves), as its notifications say.
 */
export function eventText(e: AlertEvent): string {
  const p = (e.params ?? {}) as {
    state?: string;
    oldState?: string;
    spanCount?: number;
    firing?: number;
    reopened?: boolean;
  };
  const by = e.user ? ` by ${e.user.name}` : '';
  if (e.name === 'created') return 'Created';
  if (e.name === 'recurring') return p.spanCount ? `Recurring: ${p.spanCount} occurrences` : 'Recurring';
  if (p.state === 'closed') return e.user ? `Closed${by}` : 'Resolved: back to normal';
  if (p.state === 'open') return `Reopened${by}`;
  // A metric alert's state-changed event without a state carries the alert params (still firing),
  // and `reopened` when it reopened an alert that had been closed.
  if (p.reopened) return 'Reopened: still firing';
  return p.firing ? 'Still firing' : 'State changed';
}
