import { ColumnMap, type ErrorMatcher } from '@lantern/shared';
import { cleanUnit } from '../../metrics/dashboards/grid/units';

/** Pure rules of the monitor forms (spec platform §2.9, §2.10, §5). */

export const blankMatcher = (): ErrorMatcher => ({ attr: '', op: '=', value: '' });
export const isBlank = (m: ErrorMatcher) => !m.attr && !m.value;

/** At least one blank matcher row is always shown (spec platform §2.10): one is added when none is left. */
export const withBlankRow = (ms: ErrorMatcher[]): ErrorMatcher[] => (ms.some(isBlank) ? ms : [...ms, blankMatcher()]);

/**
 * The hint under a metric monitor's query (spec platform §5): the query must return exactly one
 * column. Nothing while the columns are not known yet (no metric chosen, the preview on its way).
 */
export function columnHint(columns: readonly { name: string }[] | undefined): string | undefined {
  if (columns === undefined || columns.length === 1) return undefined;
  if (columns.length === 0) return 'The query must return at least one column to monitor.';
  return `The query returns ${columns.length} columns, but only a single column is allowed.`;
}

/** The column a metric monitor checks: the query's only one, else none (the save is rejected). */
export const singleColumn = (columns: readonly { name: string }[] | undefined): string =>
  columns?.length === 1 ? columns[0].name : '';

/**
 * The `columns` value of the new page's address (spec platform §2.1): the JSON text of a column map
 * (name → unit, color), as a dashboard panel's Monitor action sends it. Anything else is no map.
 */
export function parseColumnMap(text: string | null): ColumnMap {
  if (!text) return {};
  try {
    const parsed = ColumnMap.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * The unit a prefilled column map gives the monitored column: its entry's unit, or, while the
 * query's column is not known yet, the unit every entry of the map agrees on. '' is none.
 */
export function prefillUnit(map: ColumnMap, column: string): string {
  if (column) return cleanUnit(map[column]?.unit ?? '');
  const units = [...new Set(Object.values(map).map((c) => cleanUnit(c.unit)))];
  return units.length === 1 ? units[0] : '';
}
