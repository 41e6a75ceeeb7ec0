import type { GridColumn } from '@lantern/shared';
import type { LayoutItem } from 'react-grid-layout';
import type { GridPosition } from './gridApi';

/** Grid constants (spec §9, reference §6): 12 columns, 20 px rows with a 5 px inset, defaults 6x14, min 5 rows. */
export const GRID_COLS = 12;
export const DEFAULT_W = 6;
export const DEFAULT_H = 14;
export const MIN_H = 5;
/** Below this container width every panel stacks in one column and dragging is off. */
export const ONE_COLUMN_BELOW = 1000;
/** rowHeight 10 + margin 10: a panel h rows tall is 20h − 10 px, as gridstack's 20 px cells with 5 px margins. */
export const ROW_HEIGHT = 10;
export const MARGIN = 10;

export const panelPixelHeight = (h: number) => h * (ROW_HEIGHT + MARGIN) - MARGIN;

/**
 * Layout items of the saved columns. When no column has a position yet (every x and y is 0),
 * panels are placed row-major by their widths; otherwise the saved positions are used.
 */
export function columnsLayout(columns: GridColumn[], cols: number): LayoutItem[] {
  const sized = columns.map((c) => ({
    c,
    w: Math.min(c.width || DEFAULT_W, GRID_COLS),
    h: Math.max(c.height || DEFAULT_H, MIN_H),
  }));
  if (cols === 1) {
    let y = 0;
    return sized.map(({ c, h }) => {
      const item = { i: c.id, x: 0, y, w: 1, h, minH: MIN_H };
      y += h;
      return item;
    });
  }
  const unplaced = columns.every((c) => c.xAxis === 0 && c.yAxis === 0);
  if (!unplaced)
    return sized.map(({ c, w, h }) => ({
      i: c.id,
      x: Math.min(c.xAxis, GRID_COLS - w),
      y: c.yAxis,
      w,
      h,
      minH: MIN_H,
    }));
  let x = 0;
  let y = 0;
  let rowH = 0;
  return sized.map(({ c, w, h }) => {
    if (x + w > GRID_COLS) {
      x = 0;
      y += rowH;
      rowH = 0;
    }
    const item = { i: c.id, x, y, w, h, minH: MIN_H };
    x += w;
    rowH = Math.max(rowH, h);
    return item;
  });
}

/** The body of `PUT .../grid`: every panel's position. */
export const layoutPositions = (layout: readonly LayoutItem[]): GridPosition[] =>
  layout.map((l) => ({ id: l.i, width: l.w, height: l.h, xAxis: l.x, yAxis: l.y }));
