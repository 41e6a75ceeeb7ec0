import { describe, expect, it } from 'vitest';
import { decideErrorAlert, errorMonitorWants, matchersHold, nextRecurringThreshold } from './errorCheck';

describe('nextRecurringThreshold', () => {
  it.each([
    [0, 100],
    [1, 100],
    [99, 100],
    [100, 1000],
    [999, 1000],
    [1000, 10_000],
    [999_999, 1_000_000],
    [1_000_000, 2_000_000],
    [2_000_000, 4_000_000],
    [5_000_000, 8_000_000],
  ])('after %i occurrences the next notification is at %i', (prev, next) => {
    expect(nextRecurringThreshold(prev)).toBe(next);
  });
});

describe('decideErrorAlert', () => {
  it('creates a new alert with the count seen', () => {
    expect(decideErrorAlert(null, 3)).toEqual({ kind: 'create', spanCount: 3 });
  });
  it('stays silent below the next threshold', () => {
    expect(decideErrorAlert({ state: 'open', spanCount: 3 }, 50)).toEqual({
      kind: 'update',
      spanCount: 53,
      notify: false,
    });
  });
  it('notifies when crossing 100 and 1000', () => {
    expect(decideErrorAlert({ state: 'open', spanCount: 60 }, 40)).toEqual({
      kind: 'update',
      spanCount: 100,
      notify: true,
    });
    expect(decideErrorAlert({ state: 'open', spanCount: 100 }, 899)).toMatchObject({ notify: false });
    expect(decideErrorAlert({ state: 'open', spanCount: 100 }, 900)).toMatchObject({ notify: true });
  });
  it('reopens (notifies) a closed alert on any new occurrence', () => {
    expect(decideErrorAlert({ state: 'closed', spanCount: 5 }, 1)).toEqual({
      kind: 'update',
      spanCount: 6,
      notify: true,
    });
  });
});

describe('matchers', () => {
  const attrs = { 'service.name': 'api', 'deployment.environment': 'prod' };
  it('ANDs matchers, empty matches all, missing attribute never matches', () => {
    expect(matchersHold([], attrs)).toBe(true);
    expect(
      matchersHold(
        [
          { attr: 'service.name', op: '=', value: 'api' },
          { attr: 'deployment.environment', op: '!=', value: 'dev' },
        ],
        attrs,
      ),
    ).toBe(true);
    expect(
      matchersHold(
        [
          { attr: 'service.name', op: '=', value: 'api' },
          { attr: 'deployment.environment', op: '=', value: 'dev' },
        ],
        attrs,
      ),
    ).toBe(false);
    expect(matchersHold([{ attr: 'host.name', op: '!=', value: 'x' }], attrs)).toBe(false);
  });
  it('uses notifyOnNewErrors for created and notifyOnRecurringErrors for recurring', () => {
    const p = { notifyOnNewErrors: true, notifyOnRecurringErrors: false, matchers: [] };
    expect(errorMonitorWants(p, 'created', attrs)).toBe(true);
    expect(errorMonitorWants(p, 'recurring', attrs)).toBe(false);
    expect(errorMonitorWants({ ...p, notifyOnNewErrors: false }, 'created', attrs)).toBe(false);
    expect(errorMonitorWants(p, 'state-changed', attrs)).toBe(true);
  });
});
