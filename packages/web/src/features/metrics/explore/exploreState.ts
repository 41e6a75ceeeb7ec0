import type { MetricAlias } from '@lantern/shared';

/**
 * Pure helpers of Metrics explore: the dialog's state as address params (`metric`, `alias` lists
 * and `query`) and the query a metric opens with.
 */

/** Pairs the address's `metric` and `alias` lists; a missing alias is left empty for the picker to flag. */
export function metricsFromParams(names: readonly string[], aliases: readonly string[]): MetricAlias[] {
  return names.filter(Boolean).map((name, i) => ({ name, alias: aliases[i] ?? '' }));
}

export function metricsToParams(metrics: readonly MetricAlias[]): { metric: string[]; alias: string[] } {
  return { metric: metrics.map((m) => m.name), alias: metrics.map((m) => m.alias) };
}

/** Sorts the explore table's rows. */
export type MetricSort = { by: 'name' | 'instrument' | 'numTimeseries'; desc: boolean };
export function sortMetrics<T extends { name: string; instrument: string; numTimeseries?: number }>(
  rows: readonly T[],
  s: MetricSort,
): T[] {
  const dir = s.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const c =
      s.by === 'numTimeseries' ? (a.numTimeseries ?? 0) - (b.numTimeseries ?? 0) : a[s.by].localeCompare(b[s.by]);
    return (c || a.name.localeCompare(b.name)) * dir;
  });
}

/**
 * Metrics whose name holds the typed text, case-insensitively, as the server's `search_input`
 * matches them: the table narrows at once while the request waits for the typing to pause.
 */
export function filterByName<T extends { name: string }>(rows: readonly T[], search: string): readonly T[] {
  const s = search.trim().toLowerCase();
  return s ? rows.filter((m) => m.name.toLowerCase().includes(s)) : rows;
}

/** The toolbar count (reference §1.3.12 "[more than] N metrics"; spec: 'more than' when more exist). */
export function metricsCount(n: number, hasMore: boolean): string {
  return `${hasMore ? 'more than ' : ''}${n} ${n === 1 && !hasMore ? 'metric' : 'metrics'}`;
}
