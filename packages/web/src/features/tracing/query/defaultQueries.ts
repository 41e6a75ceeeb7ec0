import { quoteValue } from '../../../lib/query/facetFilter';

/**
 * The queries the tracing screens start from (reference frontend §1.3.3, §5): the default group
 * query per system kind and the where-part helpers.
 */
export const SPAN_GROUP_QUERY = 'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)';
export const EVENT_GROUP_QUERY = 'group by .group_id | .count_per_min';

/** Event systems: `events:all`, `other-events`, `message:*`, and error logs (reference §1.3.7). */
export function isEventSystem(system: string | undefined): boolean {
  if (!system) return false;
  return (
    system === 'events:all' ||
    system === 'other-events' ||
    system.startsWith('message:') ||
    /^log:(error|fatal|panic)$/.test(system)
  );
}

export function isLogSystem(system: string): boolean {
  return system.startsWith('log:');
}

/**
 * Events, messages and logs: rows without a duration, counted by `lantern.tracing.events`. Lists
 * of them go newest first without a duration column or filter, their groups start from the rate
 * alone, and their Monitor menus watch events (the reference gave `log:all` and `log:info` the
 * span treatment: percentiles and a Dur. column of zeros, a list ordered by them, and monitors of
 * a span metric that never counts logs).
 */
export function hasNoDuration(system: string | undefined): boolean {
  return system !== undefined && (isEventSystem(system) || isLogSystem(system));
}

export function isSpanSystem(system: string): boolean {
  return system !== 'all' && !isEventSystem(system) && !isLogSystem(system);
}

export const PART_SEPARATOR = ' | ';

/** Splits on ` | `, trims, drops empty parts (the same rule as the shared parser). */
export function queryParts(query: string): string[] {
  return query
    .split(PART_SEPARATOR)
    .map((p) => p.trim())
    .filter(Boolean);
}

export function joinQuery(parts: readonly (string | undefined)[]): string {
  return parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(PART_SEPARATOR);
}

const WHERE = /^where\s+/i;

/** Only the `where ...` parts. */
export function whereQuery(query: string): string {
  return joinQuery(queryParts(query).filter((p) => WHERE.test(p)));
}

/** The default group query for the first active system, keeping (or not) the current where parts. */
export function defaultGroupQuery(systems: string[], keepWhereOf?: string): string {
  const base = hasNoDuration(systems[0]) ? EVENT_GROUP_QUERY : SPAN_GROUP_QUERY;
  return joinQuery([base, keepWhereOf ? whereQuery(keepWhereOf) : undefined]);
}

/** Appends each part of `add` that is not already in `query` (exact match). */
export function addParts(query: string, add: string): string {
  const parts = queryParts(query);
  for (const p of queryParts(add)) if (!parts.includes(p)) parts.push(p);
  return joinQuery(parts);
}

/** Replaces the first part matching `re`, or appends `part`. */
export function replaceOrPush(query: string, re: RegExp, part: string): string {
  const parts = queryParts(query);
  const i = parts.findIndex((p) => re.test(p));
  if (i === -1) parts.push(part);
  else parts[i] = part;
  return joinQuery(parts);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `where <col> <op> <value>`, replacing an existing part with the same column and operator. */
export function setWhere(query: string, column: string, op: string, value?: string): string {
  const re = new RegExp(
    `^where\\s+${escapeRe(column)}\\s+${escapeRe(op)}${value === undefined ? '$' : '\\s+.+$'}`,
    'i',
  );
  return replaceOrPush(
    query,
    re,
    joinQuery([`where ${column} ${op}${value === undefined ? '' : ` ${quoteValue(value)}`}`]),
  );
}

/** Replaces any `group by` with `group by <col>`. */
export function resetGroupBy(query: string, column: string): string {
  const parts = queryParts(query).filter((p) => !/^group\s+by\s/i.test(p));
  return joinQuery([`group by ${column}`, ...parts]);
}

export function removePart(query: string, index: number): string {
  const parts = queryParts(query);
  parts.splice(index, 1);
  return joinQuery(parts);
}

/** The group-by query of an attribute (Explore an attribute's values). */
export function exploreAttrQuery(column: string, isEvent: boolean): string {
  return isEvent
    ? `group by ${column} | .count_per_min`
    : `group by ${column} | .count_per_min | .error_rate | {p50,p90,p99}(.duration)`;
}

/** The span-list query of one group: the default query filtered by the group id. */
export function groupSpansQuery(groupId: string, system?: string): string {
  return joinQuery([defaultGroupQuery(system ? [system] : []), `where .group_id = ${groupId}`]);
}
