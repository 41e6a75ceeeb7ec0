import { type MetricColumn, toText } from '@lantern/shared';

/**
 * A value as the metrics query language reads it: bare when it is a plain word (`web-1`, `a.b-c`,
 * `10`), quoted otherwise. A word must start with a letter, digit or `_`: `/cart` or `-x` would lex
 * as an operator, and `:` is no value character (`db:5432`), so those are quoted.
 */
export function queryValue(v: unknown): string {
  const s = toText(v);
  return /^\w[\w.-]*$/.test(s) ? s : JSON.stringify(s);
}

/** A table row's values of its grouping columns (what the row dialog narrows the grid to). */
export type RowGroups = Record<string, unknown>;

export function rowGroups(columns: readonly MetricColumn[], row: Record<string, unknown>): RowGroups {
  return Object.fromEntries(columns.filter((c) => c.isGroup).map((c) => [c.name, row[c.name]]));
}

/** The where clauses that select one table row: one per grouping column (spec: the row dialog's grid). */
export function rowFilter(groups: RowGroups): string {
  return Object.entries(groups)
    .map(([name, value]) => `where ${name} = ${queryValue(value)}`)
    .join(' | ');
}

/**
 * A panel's `gridQueryTemplate` for one table row (reference alerting-dashboards-auth §4.4): each
 * `${<grouping column>}` becomes the row's quoted value. Other placeholders stay as typed, so the
 * panel shows the query error rather than silently dropping the filter.
 */
export function applyGridQueryTemplate(template: string, groups: RowGroups): string {
  return template.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    const key = name.trim();
    return Object.hasOwn(groups, key) ? queryValue(groups[key]) : whole;
  });
}

/**
 * The query a grid panel adds to its own in a table row's dialog (frontend §6): its template with the
 * row's values when it has one, used instead of the dashboard query and the row filter; otherwise the
 * dashboard query and the row filter.
 */
export function rowPanelQuery(template: string, gridQuery: string, groups: RowGroups): string[] {
  return template.trim() ? [applyGridQueryTemplate(template, groups)] : [gridQuery, rowFilter(groups)];
}

/** Rows whose grouping or value text holds `search` (case-insensitive): the table's quick search. */
export function searchRows<T extends Record<string, unknown>>(
  rows: readonly T[],
  columns: readonly MetricColumn[],
  search: string,
): T[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...rows];
  return rows.filter((r) => columns.some((c) => toText(r[c.name]).toLowerCase().includes(q)));
}

/** Sorted by one column (numbers as numbers, nulls last). */
export function sortRows<T extends Record<string, unknown>>(rows: readonly T[], column: string, desc: boolean): T[] {
  const dir = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[column];
    const y = b[column];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return toText(x).localeCompare(toText(y)) * dir;
  });
}
