import { type MetricColumn, toText } from '@lantern/shared';

/** A value as the metrics query language reads it: bare when it is a plain word, quoted otherwise. */
export function queryValue(v: unknown): string {
  const s = toText(v);
  return /^[\w.:/-]+$/.test(s) ? s : JSON.stringify(s);
}

/** The where clauses that select one table row: one per grouping column (spec: the row dialog's grid). */
export function rowFilter(columns: readonly MetricColumn[], row: Record<string, unknown>): string {
  return columns
    .filter((c) => c.isGroup)
    .map((c) => `where ${c.name} = ${queryValue(row[c.name])}`)
    .join(' | ');
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
