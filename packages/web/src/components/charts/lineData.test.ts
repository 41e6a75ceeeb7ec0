import { describe, expect, it } from 'vitest';
import { linePairs, lineSeriesData, lonePoints } from './lineData';

describe('lineData', () => {
  const time = [0, 1, 2, 3, 4];
  it('gives [time, value] pairs with NaN as a gap, and keeps zeros as values', () => {
    expect([...linePairs(time, [null, 5, undefined, 0, 3])]).toEqual([0, NaN, 1, 5, 2, NaN, 3, 0, 4, 3]);
  });
  it('finds the values between two gaps, at either end too', () => {
    expect(lonePoints([null, 5, null, 2, 3])).toEqual([1]);
    expect(lonePoints([1, null, null, 4])).toEqual([0, 3]);
    expect(lonePoints([1, 2], 5)).toEqual([]);
    expect(lonePoints([0, 0])).toEqual([]);
  });
  it('shows symbols only on a series with lone values, and only at them', () => {
    const plain = lineSeriesData(time, [1, 2, 3, 4, 5]);
    expect(plain).toMatchObject({ showSymbol: false, symbol: 'none' });
    const dotted = lineSeriesData(time, [null, 5, null, 2, 3], 3);
    expect(dotted.showSymbol).toBe(true);
    expect(dotted.symbolSize).toBe(3);
    const symbol = dotted.symbol as (v: unknown, p: { dataIndex: number }) => string;
    expect([0, 1, 2, 3, 4].map((i) => symbol(null, { dataIndex: i }))).toEqual([
      'none',
      'circle',
      'none',
      'none',
      'none',
    ]);
  });
});
