import {
  AGGREGATIONS_BY_INSTRUMENT,
  isMetricAlias,
  splitMetricsQueryParts,
  type Instrument,
  type MetricAlias,
  type MetricAliasProblem,
} from '@lantern/shared';

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

/**
 * Where a metric's default query goes: `columns`, a form that shows several columns (Explore, a
 * dashboard table, a grid chart or table); `one`, a form that checks one number (a monitor, which
 * refuses a second column, or a gauge).
 */
export type DefaultShape = 'columns' | 'one';

/**
 * The first query of a metric (reference frontend §1.3.13, MetricsPicker): rate for counters, the
 * instrument's first aggregation otherwise; where there is room for columns a histogram adds its
 * average and its rate (`avg($a) | per_min(count($a))`: how slow and how many, as Uptrace opens it),
 * where there is one its median.
 */
export function defaultQuery(alias: string, instrument: Instrument | undefined, shape: DefaultShape = 'one'): string {
  if (!instrument || instrument === 'deleted') return `avg($${alias})`;
  if (instrument === 'counter') return `per_min($${alias})`;
  if (instrument === 'histogram' && shape === 'columns')
    return joinParts([aggregationPart('avg', alias), aggregationPart('per_min(count)', alias)]);
  return aggregationPart(AGGREGATIONS_BY_INSTRUMENT[instrument][0], alias);
}

/** `$alias` as written in a query: followed by a non-alphanumeric character or the end. */
const aliasRef = (alias: string, flags = 'i') =>
  new RegExp(`\\$${alias.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?![A-Za-z0-9_])`, flags);

/**
 * The query once metrics are removed from the picker (reference frontend §1.3.13): every part that
 * mentions a removed `$alias` (followed by a non-alphanumeric character or the end) is dropped.
 */
export function dropAliasParts(query: string, removedAliases: readonly string[]): string {
  if (!removedAliases.length) return query;
  const mentions = (part: string) => removedAliases.some((a) => aliasRef(a).test(part));
  return query
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p && !mentions(p))
    .join(' | ');
}

/** Every `$from` of the query written `$to` (`$from.attr` too; `$fromx` is another alias). */
export function renameAlias(query: string, from: string, to: string): string {
  return from ? query.replace(aliasRef(from, 'gi'), () => `$${to}`) : query;
}

/**
 * The query kept in step with the picker's metrics: an added metric appends its default part
 * (`defaultQuery`), a removed one drops its parts, a renamed one has its `$alias` references
 * rewritten. `inQuery` is each metric as the query names it: an alias being typed (empty, invalid or
 * taken) is not written into the query, which keeps naming the metric by its last good alias until
 * the new one is fine. Returns the query and the new `inQuery`.
 */
export function syncQueryWithMetrics(
  query: string,
  inQuery: readonly MetricAlias[],
  next: readonly MetricAlias[],
  instrumentOf: (name: string) => Instrument | undefined,
  shape: DefaultShape = 'one',
): { query: string; inQuery: MetricAlias[] } {
  const removed = inQuery.filter((b) => !next.some((n) => n.name === b.name)).map((b) => b.alias);
  let q = dropAliasParts(query, removed);
  const kept: MetricAlias[] = [];
  for (const [i, n] of next.entries()) {
    const before = inQuery.find((b) => b.name === n.name);
    // Free: a valid alias no other metric has, neither in the picker nor in the query.
    const free =
      !aliasError(n.alias, next) &&
      !next.some((o, j) => j !== i && inQuery.some((b) => b.name === o.name && b.alias === n.alias));
    if (!before) {
      if (free) q = addPart(q, defaultQuery(n.alias, instrumentOf(n.name), shape));
      kept.push(n);
    } else if (before.alias !== n.alias && free) {
      q = renameAlias(q, before.alias, n.alias);
      kept.push(n);
    } else kept.push(before);
  }
  return { query: q, inQuery: kept };
}
