import { describe, expect, it } from 'vitest';
import type { AlertEvent } from '@lantern/shared';
import { formatDateTimeFull } from '../../../lib/format/dateTime';
import { closedHow, stateFacts } from './alertState';

const event = (over: Partial<AlertEvent>): AlertEvent => ({
  id: 1,
  name: 'state-changed',
  params: {},
  user: null,
  createdAt: '2026-01-01T00:00:00Z',
  notifications: [],
  ...over,
});
const created = event({ id: 1, name: 'created', params: { firing: 1 } });
const autoClose = event({ id: 2, params: { state: 'closed', oldState: 'open' } });
const userClose = event({ id: 3, params: { state: 'closed', oldState: 'open' }, user: { id: 1, name: 'Ann' } });
const reopen = event({ id: 4, params: { state: 'open', oldState: 'closed' }, user: { id: 1, name: 'Ann' } });
const closedAt = '2026-01-01T10:05:00Z';

describe('alert state facts', () => {
  it('a closed metric alert says it is resolved and when, and keeps its trigger as history', () => {
    // The card showed "State closed · Trigger 159 more than 100 · Time ...", as if it still fired.
    expect(stateFacts({ state: 'closed', updatedAt: closedAt }, [autoClose, created], '159 more than 100')).toEqual([
      { label: 'State', value: 'Resolved: back to normal', testId: 'alert-fact-state' },
      { label: 'Resolved at', value: formatDateTimeFull(new Date(closedAt)), testId: 'alert-fact-time' },
      { label: 'Fired when', value: '159 more than 100', testId: 'alert-fact-trigger' },
    ]);
  });

  it('a closed alert says who closed it; the latest close counts', () => {
    expect(closedHow([userClose, reopen, autoClose, created])).toBe('Closed by Ann');
    expect(closedHow([autoClose, reopen, userClose, created])).toBe('Resolved: back to normal');
    expect(
      stateFacts({ state: 'closed', updatedAt: closedAt }, [userClose], '').map((f) => [f.label, f.value]),
    ).toEqual([
      ['State', 'Closed by Ann'],
      ['Closed at', formatDateTimeFull(new Date(closedAt))],
    ]);
  });

  it('says only "Closed" while the history is not known', () => {
    expect(closedHow(undefined)).toBe('Closed');
    expect(closedHow([created])).toBe('Closed');
  });

  it('an open alert shows its trigger as the current state', () => {
    expect(stateFacts({ state: 'open', updatedAt: closedAt }, [created], '159 more than 100')).toEqual([
      { label: 'State', value: 'open', testId: 'alert-fact-state' },
      { label: 'Trigger', value: '159 more than 100', testId: 'alert-fact-trigger' },
      { label: 'Time', value: formatDateTimeFull(new Date(closedAt)), testId: 'alert-fact-time' },
    ]);
  });
});
