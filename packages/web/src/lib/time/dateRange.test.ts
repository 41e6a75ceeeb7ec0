import { describe, expect, it } from 'vitest';
import {
  DAY,
  HOUR,
  MINUTE,
  around,
  changeDuration,
  combineInputs,
  fixedRange,
  formatCompactUtc,
  fromAddress,
  gteOf,
  hasNext,
  hasPrev,
  limitRange,
  nextPeriod,
  nowRange,
  parseCompactUtc,
  parseDayInput,
  parseTimeInput,
  periodText,
  periodsUpTo,
  prevPeriod,
  splitDuration,
  toAddress,
  toAddressPatch,
  toApiParams,
} from './dateRange';

const NOW = Date.UTC(2024, 4, 10, 12, 0, 30);

describe('now mode and periods', () => {
  it('ends at the current minute, rounded up', () => {
    const r = nowRange(HOUR, NOW);
    expect(new Date(r.lt).toISOString()).toBe('2024-05-10T12:01:00.000Z');
    expect(r.isNow).toBe(true);
    expect(toApiParams(r)).toEqual({ time_gte: '2024-05-10T11:01:00.000Z', time_lt: '2024-05-10T12:01:00.000Z' });
  });

  it('a new period keeps a past start, else switches to now', () => {
    const past = fixedRange(NOW - 2 * DAY, NOW - 2 * DAY + HOUR);
    const longer = changeDuration(past, 3 * HOUR, NOW);
    expect(longer).toEqual({ lt: NOW - 2 * DAY + 3 * HOUR, duration: 3 * HOUR, isNow: false });
    expect(changeDuration(past, 3 * DAY, NOW).isNow).toBe(true);
    expect(changeDuration(nowRange(HOUR, NOW), 15 * MINUTE, NOW)).toEqual(nowRange(15 * MINUTE, NOW));
  });

  it('around a time never ends in the future', () => {
    expect(around(NOW - DAY, HOUR, NOW)).toEqual({ lt: NOW - DAY + HOUR / 2, duration: HOUR, isNow: false });
    expect(around(NOW, HOUR, NOW).lt).toBe(Date.UTC(2024, 4, 10, 12, 1));
  });

  it('limits the duration to a page maximum', () => {
    expect(limitRange(nowRange(120 * DAY, NOW), 90).duration).toBe(90 * DAY);
    expect(limitRange(nowRange(DAY, NOW), 90).duration).toBe(DAY);
  });

  it('lists periods up to the limit and names other durations', () => {
    expect(
      periodsUpTo(10)
        .map((p) => p.text)
        .at(-1),
    ).toBe('10 days');
    expect(periodsUpTo().length).toBe(12);
    expect(periodText(HOUR)).toBe('1 hour');
    expect(periodText(2 * HOUR + 30 * MINUTE)).toBe('2 hours 30 minutes');
    expect(periodText(90 * MINUTE)).toBe('1 hour 30 minutes');
  });
});

describe('previous and next arrows', () => {
  it.each([
    ['now mode: prev yes, next no', nowRange(HOUR, NOW), true, false],
    ['ended 10 minutes ago: next no', fixedRange(NOW - 70 * MINUTE, NOW - 10 * MINUTE), true, false],
    ['ended 20 minutes ago: next yes', fixedRange(NOW - 80 * MINUTE, NOW - 20 * MINUTE), true, true],
    ['started 29 days ago: prev yes', fixedRange(NOW - 29 * DAY, NOW - 28 * DAY), true, true],
    ['started 31 days ago: prev no', fixedRange(NOW - 31 * DAY, NOW - 30 * DAY), false, true],
  ])('%s', (_name, r, prev, next) => {
    expect(hasPrev(r, NOW)).toBe(prev);
    expect(hasNext(r, NOW)).toBe(next);
  });

  it('moves by one duration and never past now', () => {
    const r = nowRange(HOUR, NOW);
    const prev = prevPeriod(r);
    expect(prev).toEqual({ lt: r.lt - HOUR, duration: HOUR, isNow: false });
    expect(nextPeriod(prev, NOW).lt).toBe(NOW);
    expect(nextPeriod(prevPeriod(prev), NOW).lt).toBe(r.lt - HOUR);
  });
});

describe('address bar', () => {
  it('writes compact UTC start and seconds', () => {
    const r = fixedRange(Date.UTC(2023, 5, 15, 14, 30), Date.UTC(2023, 5, 15, 15, 30));
    expect(toAddress(r)).toEqual({ time_gte: '20230615T143000', time_dur: '3600' });
    // A live range is its duration alone: a link to it stays relative.
    expect(toAddress(nowRange(HOUR, NOW))).toEqual({ time_dur: '3600' });
    expect(toAddressPatch(nowRange(HOUR, NOW))).toEqual({ time_gte: null, time_dur: '3600' });
    expect(formatCompactUtc(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('20240102T030405');
  });

  it('reads back a fixed range, a live range and nothing', () => {
    expect(fromAddress({ time_gte: '20230615T143000', time_dur: '3600' }, NOW)).toEqual({
      lt: Date.UTC(2023, 5, 15, 15, 30),
      duration: HOUR,
      isNow: false,
    });
    const live = toAddress(nowRange(HOUR, NOW));
    expect(fromAddress(live, NOW + 2 * MINUTE)?.isNow).toBe(true);
    // Opened a day later, a live link shows the last hour then.
    expect(fromAddress(live, NOW + DAY)).toEqual(nowRange(HOUR, NOW + DAY));
    // An older link that kept the start of a live range: live within 5 minutes, fixed after.
    const started = { time_gte: formatCompactUtc(NOW - HOUR), time_dur: '3600' };
    expect(fromAddress(started, NOW + 2 * MINUTE)?.isNow).toBe(true);
    expect(fromAddress(started, NOW + DAY)?.isNow).toBe(false);
    expect(fromAddress({ time_dur: '900' }, NOW)).toEqual(nowRange(15 * MINUTE, NOW));
    expect(fromAddress({ time_gte: '20230615T143000' }, NOW)).toBeUndefined();
    expect(fromAddress({ time_dur: 'abc' }, NOW)).toBeUndefined();
    expect(parseCompactUtc('2023-06-15T14:30:00Z')).toBe(Date.UTC(2023, 5, 15, 14, 30));
    expect(parseCompactUtc('nonsense')).toBeUndefined();
  });

  it('round-trips', () => {
    const r = fixedRange(NOW - 3 * DAY, NOW - 2 * DAY);
    const back = fromAddress(toAddress(r), NOW)!;
    expect(gteOf(back)).toBe(Math.floor(gteOf(r) / 1000) * 1000);
    expect(back.duration).toBe(DAY);
  });
});

describe('custom inputs', () => {
  it.each([
    ['15-06-2023', true],
    ['1-6-2023', true],
    ['31-02-2023', false],
    ['2023-06-15', false],
    ['15/06/2023', false],
    ['', false],
  ])('day %s valid=%s', (text, ok) => expect(parseDayInput(text) !== undefined).toBe(ok));

  it.each([
    ['0:00', 0],
    ['9:05', 545],
    ['23:59', 1439],
    ['24:00', undefined],
    ['9:60', undefined],
    ['9.05', undefined],
  ])('time %s', (text, minutes) => expect(parseTimeInput(text)).toBe(minutes));

  it('combines into local time', () => {
    expect(combineInputs('15-06-2023', '14:30')).toBe(new Date(2023, 5, 15, 14, 30).getTime());
    expect(combineInputs('15-06-2023', 'x')).toBeUndefined();
  });

  it('splits a duration into the largest exact unit under 1000', () => {
    expect(splitDuration(HOUR)).toEqual({ amount: 1, unit: 'hours' });
    expect(splitDuration(90 * MINUTE)).toEqual({ amount: 90, unit: 'minutes' });
    expect(splitDuration(3 * DAY)).toEqual({ amount: 3, unit: 'days' });
    expect(splitDuration(1001 * MINUTE)).toEqual({ amount: 16, unit: 'hours' });
  });
});
