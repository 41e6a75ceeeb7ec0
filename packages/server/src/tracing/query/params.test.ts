import { describe, expect, it } from 'vitest';
import { groupingPeriodMs } from './builders';
import { parseTimeParam } from './query.routes';

const H = 3_600_000;
const M = 60_000;

describe('groupingPeriodMs (reference query §5.1 table)', () => {
  it.each([
    [15 * M, 1, 1],
    [30 * M, 1, 1],
    [1 * H, 1, 1],
    [3 * H, 2, 1],
    [6 * H, 3, 2],
    [12 * H, 10, 3],
    [24 * H, 15, 5],
    [72 * H, 60, 15],
    [7 * 24 * H, 120, 60],
    [10 * 24 * H, 120, 60],
    [14 * 24 * H, 180, 120],
    [30 * 24 * H, 360, 180],
  ])('range %d ms -> %d min (n=120), %d min (n=300)', (range, m120, m300) => {
    expect(groupingPeriodMs(range, 120) / M).toBe(m120);
    expect(groupingPeriodMs(range, 300) / M).toBe(m300);
  });
  it('falls back to 24h', () => expect(groupingPeriodMs(400 * 24 * H, 120)).toBe(24 * H));
});

describe('parseTimeParam', () => {
  it.each([
    ['1686906000', '2023-06-16T09:00:00.000Z'],
    ['2023-06-16T09:00:00.000Z', '2023-06-16T09:00:00.000Z'],
    ['2023-06-16T11:00:00+02:00', '2023-06-16T09:00:00.000Z'],
    ['20230616T090000', '2023-06-16T09:00:00.000Z'],
    ['20230616T110000+02:00', '2023-06-16T09:00:00.000Z'],
  ])('%s', (raw, iso) => expect(parseTimeParam('time_gte', raw).toISOString()).toBe(iso));
  it.each(['yesterday', '2023-06-16T09:00:00', '2023-13-45T00:00:00Z', '20230616T0900', ''])('refuses %j', (raw) => {
    expect(() => parseTimeParam('time_gte', raw)).toThrow(/time_gte must be/);
  });
});
