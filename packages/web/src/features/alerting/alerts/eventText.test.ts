import { describe, expect, it } from 'vitest';
import type { AlertEvent, MetricAlertEventParams } from '@lantern/shared';
import { eventText } from './eventText';

const metricParams: MetricAlertEventParams = {
  firing: 1,
  outlier: 0.97,
  minutes: 1,
  bounds: { min: null, max: 0.9 },
  monitor: { metrics: [{ name: 'cpu', alias: 'cpu' }], query: 'avg($cpu) as cpu', column: 'cpu', columnUnit: '' },
};
const event = (over: Partial<AlertEvent>): AlertEvent => ({
  id: 1,
  name: 'state-changed',
  params: {},
  user: null,
  createdAt: '2026-01-01T00:00:00Z',
  notifications: [],
  ...over,
});

describe('eventText', () => {
  it('says the evaluator reopened a metric alert a user closed while it was still firing', () => {
    // It said "Still firing", as for the ~3-hourly repeat of an open alert, to the user who had just closed it.
    expect(eventText(event({ params: { ...metricParams, reopened: true } }))).toBe('Reopened: still firing');
    expect(eventText(event({ params: metricParams }))).toBe('Still firing');
  });

  it('names manual and automatic state changes, creation and recurrence', () => {
    const ann = { id: 2, name: 'Ann' };
    expect(eventText(event({ params: { state: 'closed', oldState: 'open' }, user: ann }))).toBe('Closed by Ann');
    expect(eventText(event({ params: { state: 'open', oldState: 'closed' }, user: ann }))).toBe('Reopened by Ann');
    // The evaluator's close of a metric alert back in range: it said only "Closed", like nobody's close.
    expect(eventText(event({ params: { state: 'closed', oldState: 'open' } }))).toBe('Resolved: back to normal');
    expect(eventText(event({ name: 'created', params: metricParams }))).toBe('Created');
    expect(eventText(event({ name: 'recurring', params: { spanCount: 12 } }))).toBe('Recurring: 12 occurrences');
  });
});
