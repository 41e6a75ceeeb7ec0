import type { RangeQuery } from '../tracingApi';

/** Where a span's attributes are shown: what their menus and group counts need. */
export interface AttrContext {
  projectId: number;
  range: RangeQuery;
  /** Set on pages with a query builder: the menu then filters the current page. */
  onFilter?: (key: string, value: string) => void;
}
