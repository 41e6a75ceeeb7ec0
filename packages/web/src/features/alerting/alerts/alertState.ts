import type { Alert, AlertEvent } from '@lantern/shared';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { eventText } from './eventText';

/**
 * How an alert's state reads on its card. An open alert is firing now: its trigger is the current
 * state. A closed one says how and when it was closed ("Resolved: back to normal" when the evaluator
 * closed it, "Closed by Ann" when a user did; its update time is the close's), and keeps its trigger
 * as history, labelled 'Fired when', not as what is happening now.
 */
export interface StateFact {
  label: string;
  value: string;
  testId: string;
}

/** The latest close in the history (newest first): "Resolved: back to normal", "Closed by Ann"; 'Closed' when unknown. */
export function closedHow(events: readonly AlertEvent[] | undefined): string {
  const close = events?.find(
    (e) => e.name === 'state-changed' && (e.params as { state?: string } | null)?.state === 'closed',
  );
  return close ? eventText(close) : 'Closed';
}

/** State, its time, and the trigger (a metric alert's, '' for none) in words for the card's facts. */
export function stateFacts(
  alert: Pick<Alert, 'state' | 'updatedAt'>,
  events: readonly AlertEvent[] | undefined,
  trigger: string,
): StateFact[] {
  const time = formatDateTimeFull(new Date(alert.updatedAt));
  if (alert.state === 'open')
    return [
      { label: 'State', value: 'open', testId: 'alert-fact-state' },
      ...(trigger ? [{ label: 'Trigger', value: trigger, testId: 'alert-fact-trigger' }] : []),
      { label: 'Time', value: time, testId: 'alert-fact-time' },
    ];
  const how = closedHow(events);
  return [
    { label: 'State', value: how, testId: 'alert-fact-state' },
    { label: how.startsWith('Resolved') ? 'Resolved at' : 'Closed at', value: time, testId: 'alert-fact-time' },
    ...(trigger ? [{ label: 'Fired when', value: trigger, testId: 'alert-fact-trigger' }] : []),
  ];
}
