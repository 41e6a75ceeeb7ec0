import { describe, expect, it } from 'vitest';
import { lineData } from './lineData';

describe('lineData', () => {
  const time = ['t0', 't1', 't2', 't3', 't4'];
  it('keeps nulls as gaps and dots the points between two gaps', () => {
    expect(lineData(time, [null, 5, null, 2, 3])).toEqual([
      ['t0', null],
      { value: ['t1', 5], symbol: 'circle', symbolSize: 4 },
      ['t2', null],
      ['t3', 2],
      ['t4', 3],
    ]);
  });
  it('dots a lone point at either end, and treats missing values as gaps', () => {
    expect(lineData(time, [1, null, null, null])).toEqual([
      { value: ['t0', 1], symbol: 'circle', symbolSize: 4 },
      ['t1', null],
      ['t2', null],
      ['t3', null],
      ['t4', null],
    ]);
  });
  it('keeps zeros as values', () =>
    expect(lineData(['a', 'b'], [0, 0])).toEqual([
      ['a', 0],
      ['b', 0],
    ]));
});
