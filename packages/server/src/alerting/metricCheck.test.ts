import { describe, expect, it } from 'vitest';
import {
  checkSeries,
  decideMetricAlert,
  forDurationPoints,
  nextMonitorState,
  windowPoints,
  type AlertAction,
  type Bounds,
  type LastAlert,
} from './metricCheck';

const _ = null;
const MAX1: Bounds = { min: null, max: 1 };
const MIN1: Bounds = { min: 1, max: null };
const BOTH: Bounds = { min: 0, max: 10 };

describe('forDuration units', () => {
  it('honours hours (60 points each) and minutes', () => {
    expect(forDurationPoints(5, 'minutes')).toBe(5);
    expect(forDurationPoints(3, 'hours')).toBe(180);
  });
  it('asks for at least an hour, more when forDuration + recovery needs it', () => {
    expect(windowPoints({ forDuration: 5, forDurationUnit: 'minutes' })).toBe(60);
    expect(windowPoints({ forDuration: 1, forDurationUnit: 'hours' })).toBe(66);
    expect(windowPoints({ forDuration: 3, forDurationUnit: 'hours' })).toBe(186);
  });
});

describe('checkSeries', () => {
  const cases: {
    name: string;
    values: (number | null)[];
    forPoints: number;
    bounds: Bounds;
    firing: -1 | 0 | 1;
    outlier?: number | null;
    windowStart?: number;
    recovered?: boolean;
    noData?: boolean;
  }[] = [
    { name: 'all in bounds', values: [0, 0.5, 1, 0.2], forPoints: 3, bounds: MAX1, firing: 0, recovered: true },
    {
      name: 'above max for exactly forDuration',
      values: [0, 2, 3, 4],
      forPoints: 3,
      bounds: MAX1,
      firing: 1,
      outlier: 4,
      windowStart: 1,
      recovered: false,
    },
    {
      name: 'above max one point short of forDuration',
      values: [0, 0, 3, 4],
      forPoints: 3,
      bounds: MAX1,
      firing: 0,
      recovered: false,
    },
    {
      name: 'the bound itself is in bounds (x > max, not >=)',
      values: [1, 1, 1],
      forPoints: 3,
      bounds: MAX1,
      firing: 0,
      recovered: true,
    },
    {
      name: 'below min',
      values: [5, 0, 0.5, 0.9],
      forPoints: 3,
      bounds: MIN1,
      firing: -1,
      outlier: 0.9,
      windowStart: 1,
    },
    {
      name: 'direction flip inside the window is not firing',
      values: [11, -1, 11],
      forPoints: 3,
      bounds: BOTH,
      firing: 0,
      recovered: false,
    },
    {
      name: 'both bounds, all below',
      values: [-1, -2, -3],
      forPoints: 3,
      bounds: BOTH,
      firing: -1,
      outlier: -3,
      windowStart: 0,
    },
    {
      name: 'a gap inside the window breaks it',
      values: [2, 2, _, 2, 2],
      forPoints: 4,
      bounds: MAX1,
      firing: 0,
      recovered: false,
    },
    {
      name: 'a gap is not a zero (cannot trip min)',
      values: [5, _, _, 5],
      forPoints: 2,
      bounds: MIN1,
      firing: 0,
      recovered: true,
    },
    {
      name: 'trailing gaps (ingest lag) move the window back',
      values: [0, 2, 2, 2, _, _],
      forPoints: 3,
      bounds: MAX1,
      firing: 1,
      outlier: 2,
      windowStart: 1,
    },
    {
      name: 'a series silent for longer than the ingest lag has stopped: not firing on its last value',
      values: [0, 2, 2, 2, _, _, _, _, _, _],
      forPoints: 3,
      bounds: MAX1,
      firing: 0,
      recovered: false,
    },
    {
      name: 'a stopped series recovers forDuration + 5 minutes after its last outlier',
      values: [0, 2, 2, 2, _, _, _, _, _, _, _, _],
      forPoints: 3,
      bounds: MAX1,
      firing: 0,
      recovered: true,
    },
    {
      name: 'leading gaps are ignored',
      values: [_, _, _, 2, 2],
      forPoints: 2,
      bounds: MAX1,
      firing: 1,
      outlier: 2,
      windowStart: 3,
    },
    { name: 'no data at all', values: [_, _, _], forPoints: 1, bounds: MAX1, firing: 0, noData: true, recovered: true },
    { name: 'empty series', values: [], forPoints: 1, bounds: MAX1, firing: 0, noData: true },
    { name: 'fewer points than forDuration', values: [2, 2], forPoints: 3, bounds: MAX1, firing: 0 },
    { name: 'NaN counts as a gap', values: [2, NaN, 2], forPoints: 3, bounds: MAX1, firing: 0 },
    {
      name: 'recovered needs forDuration + 5 clean points',
      values: [2, 0, 0, 0, 0, 0, 0],
      forPoints: 2,
      bounds: MAX1,
      firing: 0,
      recovered: false,
    },
    {
      name: 'recovered after forDuration + 5 clean points',
      values: [2, 0, 0, 0, 0, 0, 0, 0],
      forPoints: 2,
      bounds: MAX1,
      firing: 0,
      recovered: true,
    },
  ];
  it.each(cases)('$name', (c) => {
    const r = checkSeries(c.values, c.forPoints, c.bounds);
    expect(r.firing).toBe(c.firing);
    if (c.outlier !== undefined) expect(r.outlier).toBe(c.outlier);
    if (c.windowStart !== undefined) expect(r.windowStart).toBe(c.windowStart);
    if (c.recovered !== undefined) expect(r.recovered).toBe(c.recovered);
    expect(r.noData).toBe(c.noData ?? false);
    if (c.firing === 0) expect(r.windowStart).toBe(-1);
  });
});

describe('decideMetricAlert: (check, last alert, now) -> action', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (min: number) => new Date(now.getTime() - min * 60_000);
  const firing = checkSeries([2, 2, 2], 3, MAX1);
  const stillOut = checkSeries([2, 2, 0], 3, MAX1); // not firing, not recovered
  const back = checkSeries([2, 0, 0, 0, 0, 0, 0, 0, 0], 3, MAX1);
  const noData = checkSeries([_, _], 3, MAX1);
  const open = (min: number): LastAlert => ({ state: 'open', updatedAt: ago(min) });
  const closed = (min: number): LastAlert => ({ state: 'closed', updatedAt: ago(min) });

  const table: [string, ReturnType<typeof checkSeries>, LastAlert | null, AlertAction['kind']][] = [
    ['firing, no alert yet -> create', firing, null, 'create'],
    ['firing, alert open 10 min ago -> nothing (no repeat)', firing, open(10), 'none'],
    ['firing, alert open 3 h ago -> still firing', firing, open(180), 'still-firing'],
    ['firing, alert open 2h59 ago -> nothing', firing, open(179), 'none'],
    ['firing, alert closed by a user -> reopen', firing, closed(5), 'reopen'],
    ['firing, last alert older than 8 h -> new episode', firing, open(8 * 60), 'create'],
    ['firing, closed alert older than 8 h -> new episode', firing, closed(8 * 60 + 1), 'create'],
    ['not yet recovered -> keep the alert open', stillOut, open(10), 'none'],
    ['recovered -> auto-close', back, open(10), 'close'],
    ['recovered, already closed -> nothing', back, closed(10), 'none'],
    ['recovered, no alert -> nothing', back, null, 'none'],
    ['no data, open alert -> close', noData, open(10), 'close'],
    ['no data, no alert -> nothing', noData, null, 'none'],
    ['recovered, open alert older than 8 h -> nothing (history)', back, open(9 * 60), 'none'],
  ];
  it.each(table)('%s', (_name, check, last, kind) => {
    expect(decideMetricAlert(check, last, now).kind).toBe(kind);
  });
});

describe('nextMonitorState', () => {
  it('is no-data without series, firing with an open alert, active otherwise', () => {
    expect(nextMonitorState(0, false)).toBe('no-data');
    expect(nextMonitorState(2, true)).toBe('firing');
    expect(nextMonitorState(2, false)).toBe('active');
  });
});
