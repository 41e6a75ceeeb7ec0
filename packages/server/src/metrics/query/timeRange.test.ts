import { describe, expect, it } from 'vitest';
import { bucketMinutes, groupingPeriodMin, parseTime, timeGrid } from './timeRange';

describe('groupingPeriodMin', () => {
  it.each([
    [15, 1],
    [60, 1],
    [180, 2],
    [360, 3],
    [720, 10],
    [1440, 15],
    [3 * 1440, 60],
    [7 * 1440, 120],
    [14 * 1440, 180],
    [30 * 1440, 360],
  ])('%i minutes -> %i', (minutes, want) => expect(groupingPeriodMin(minutes * 60_000)).toBe(want));
});

describe('timeGrid', () => {
  it('aligns the start down to the bucket and picks the table', () => {
    const g = timeGrid('2026-01-01T10:07:30Z', '2026-01-01T16:07:30Z');
    expect(g.bucketMin).toBe(3);
    expect(g.gte.toISOString()).toBe('2026-01-01T10:06:00.000Z');
    expect(g.points).toBe(121);
    expect(g.table).toBe('datapoint_minutes');
    expect(timeGrid('20260101T000000', '20260108T000000').table).toBe('datapoint_hours');
    // 24 h: 15-minute buckets, read from the 15-minute rollup; 12 h: 10-minute buckets, from the minutes.
    expect(timeGrid('20260101T000000', '20260102T000000').table).toBe('datapoint_15m');
    expect(timeGrid('20260101T000000', '20260101T120000').table).toBe('datapoint_minutes');
  });
  it('marks where the finished minutes end: the current one is still being exported into', () => {
    const now = Date.parse('2026-01-01T10:30:25Z');
    const g = timeGrid('2026-01-01T09:31:00Z', '2026-01-01T10:31:00Z', now);
    expect([g.bucketMin, g.points, g.lt.toISOString(), g.complete.toISOString()]).toEqual([
      1,
      60,
      '2026-01-01T10:31:00.000Z',
      '2026-01-01T10:30:00.000Z',
    ]);
    expect([bucketMinutes(g, 58), bucketMinutes(g, 59)]).toEqual([1, 1]);
    // A range that ended before is all finished; so is one inside the current minute.
    expect(timeGrid('2026-01-01T08:00:00Z', '2026-01-01T09:00:00Z', now).complete.toISOString()).toBe(
      '2026-01-01T09:00:00.000Z',
    );
    expect(timeGrid('2026-01-01T10:30:10Z', '2026-01-01T10:31:00Z', now).complete.toISOString()).toBe(
      '2026-01-01T10:31:00.000Z',
    );
    // 24 h: 15-minute buckets; the last one sums the 7 finished minutes.
    const day = timeGrid('2026-01-01T10:38:00Z', '2026-01-02T10:38:00Z', Date.parse('2026-01-02T10:37:20Z'));
    expect([day.bucketMin, day.complete.toISOString(), bucketMinutes(day, day.points - 1)]).toEqual([
      15,
      '2026-01-02T10:37:00.000Z',
      7,
    ]);
  });
  it('parses the three time forms and refuses others', () => {
    expect(parseTime('1767225600', 't').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseTime('20260101T010000+01:00', 't').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(() => parseTime('yesterday', 'time_gte')).toThrow('time_gte must be');
    expect(() => timeGrid('1767225600', '1767225600')).toThrow('time_lt must be after time_gte');
  });
});
