import type { GridColumn } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { columnsLayout, layoutPositions, panelPixelHeight } from './gridLayout';

const col = (id: string, p: Partial<GridColumn> = {}) =>
  ({
    id,
    width: 0,
    height: 0,
    xAxis: 0,
    yAxis: 0,
    type: 'table',
    params: { metrics: [], query: '', columnMap: {} },
    name: id,
    ...p,
  }) as GridColumn;

describe('columnsLayout', () => {
  it('places unpositioned panels row-major with the 6x14 default', () => {
    const l = columnsLayout([col('1'), col('2'), col('3', { width: 12, height: 8 })], 12);
    expect(l.map(({ i, x, y, w, h }) => [i, x, y, w, h])).toEqual([
      ['1', 0, 0, 6, 14],
      ['2', 6, 0, 6, 14],
      ['3', 0, 14, 12, 8],
    ]);
  });
  it('keeps saved positions and enforces the 5-row minimum', () => {
    const l = columnsLayout(
      [col('1', { xAxis: 6, yAxis: 3, width: 6, height: 2 }), col('2', { width: 4, height: 10 })],
      12,
    );
    expect(l.map(({ i, x, y, w, h }) => [i, x, y, w, h])).toEqual([
      ['1', 6, 3, 6, 5],
      ['2', 0, 0, 4, 10],
    ]);
  });
  it('stacks in one column', () => {
    const l = columnsLayout([col('1', { height: 10 }), col('2')], 1);
    expect(l.map(({ x, y, w }) => [x, y, w])).toEqual([
      [0, 0, 1],
      [0, 10, 1],
    ]);
  });
  it('maps back to positions and pixel heights', () => {
    expect(layoutPositions([{ i: '7', x: 1, y: 2, w: 3, h: 4 }])).toEqual([
      { id: '7', width: 3, height: 4, xAxis: 1, yAxis: 2 },
    ]);
    expect(panelPixelHeight(14)).toBe(270);
  });
});
