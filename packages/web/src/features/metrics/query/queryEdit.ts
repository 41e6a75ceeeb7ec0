import { isMetricAlias, splitMetricsQueryParts, type MetricAlias, type MetricAliasProblem } from '@lantern/shared';

/**
 * Pure editing of metric choices and metrics queries for the picker and the query builder:
 * aliases, and a query as `|`-separated parts that chips add, replace and remove.
 */

/** A free alias for a metric: its last name segment, lower case, letters and digits; `2`, `3`... when taken. */
export function suggestAlias(name: string, taken: readonly string[]): string {
  const last = name.split(/[.:/]/).filter(Boolean).pop() ?? name;
  let base = last.toLowerCase().replace(/[^a-z0-9_]/g, '');
  if (!/^[a-z]/.test(base)) base = `m${base}`;
  base = base.slice(0, 30);
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}${i}`)) return `${base}${i}`;
}

/** The alias messages of spec platform §5, worded once for the picker and the forms that hold one. */
export const ALIAS_MESSAGES: Record<MetricAliasProblem['kind'], string> = {
  empty: 'Alias is required',
  invalid: 'Only letters and numbers are allowed',
  duplicate: 'Alias is duplicated',
};

/** The picker's message for one alias among the query's metrics. */
export function aliasError(alias: string, all: readonly MetricAlias[]): string | undefined {
  if (!alias) return ALIAS_MESSAGES.empty;
  if (!isMetricAlias(alias)) return ALIAS_MESSAGES.invalid;
  if (all.filter((m) => m.alias === alias).length > 1) return ALIAS_MESSAGES.duplicate;
  return undefined;
}

export const queryParts = (query: string): string[] => splitMetricsQueryParts(query).map((p) => p.text);
export const joinParts = (parts: readonly string[]) => parts.filter((p) => p.trim()).join(' | ');

export const addPart = (query: string, part: string): string => joinParts([...queryParts(query), part]);
export const removePart = (query: string, index: number): string =>
  joinParts(queryParts(query).filter((_, i) => i !== index));
export const replacePart = (query: string, index: number, part: string): string =>
  joinParts(queryParts(query).map((p, i) => (i === index ? part : p)));

/** `group by a, b`: the keys of a query's group-by parts. */
export function groupByKeys(query: string): string[] {
  return queryParts(query).flatMap((p) => {
    const m = /^group\s+by\s+(.+)$/i.exec(p);
    return m
      ? m[1]
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean)
      : [];
  });
}

/** Adds a key to the query's group by (one part for all keys), or removes it when present. */
export function toggleGroupBy(query: string, key: string): string {
  const keys = groupByKeys(query);
  const next = keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key];
  const rest = queryParts(query).filter((p) => !/^group\s+by\s/i.test(p));
  return joinParts(next.length ? [...rest, `group by ${next.join(', ')}`] : rest);
}

/** A value as the query language reads it: bare when a plain word (`web-2`, `3.5`), quoted otherwise. */
export function quoteQueryValue(v: string): string {
  return /^\w[\w.:/-]*$/.test(v) ? v : JSON.stringify(v);
}

/** The aggregation part for a metric: `p90($lat)`, `per_min(count($lat))`. */
export function aggregationPart(fn: string, alias: string): string {
  const inner = /^(\w+)\((\w+)\)$/.exec(fn);
  return inner ? `${inner[1]}(${inner[2]}($${alias}))` : `${fn}($${alias})`;
}
