import { describe, expect, it } from 'vitest';
import { pagerWindow } from './pagerWindow';

describe('pagerWindow', () => {
  it.each([
    [1, 15, 40, { page: 1, pages: 3, start: 0, end: 15 }],
    [3, 15, 40, { page: 3, pages: 3, start: 30, end: 40 }],
    [9, 15, 40, { page: 3, pages: 3, start: 30, end: 40 }],
    [1, 10, 0, { page: 1, pages: 1, start: 0, end: 0 }],
    [2000, 1, 5000, { page: 1000, pages: 1000, start: 999, end: 1000 }],
  ])('page %d of %d per page, %d items', (page, per, total, want) => {
    expect(pagerWindow(page, per, total)).toEqual(want);
  });
});
