import { join, param, sql, type SqlFragment } from '../../storage/sql';
import type { CompiledQuery } from './compile';
import { EVENTS_ALL_SQL, EVENT_TYPES_SQL } from './eventTypes';

// The conditions every tracing query starts from (reference query §1.8): project, time range, the
// `system` param and the group, over `spans_index AS s`.

/** The `system` param (§1.8): `all`, `spans:all`, `events:all`, `<type>:all`, a bare type, or an exact system. */
export function systemClause(systems: readonly string[]): SqlFragment | null {
  if (systems.length === 0 || systems.some((s) => s === '' || s === 'all')) return null;
  const conds = systems.map((s) => {
    if (s === 'spans:all') return sql`s.type NOT IN ${EVENT_TYPES_SQL}`;
    if (s === 'events:all') return EVENTS_ALL_SQL;
    const colon = s.indexOf(':');
    if (colon === -1) return sql`s.type = ${param.string(s)}`;
    const type = s.slice(0, colon);
    if (s.slice(colon + 1) === 'all') return sql`s.type = ${param.string(type)}`;
    return sql`(s.type = ${param.string(type)} AND s.system = ${param.string(s)})`;
  });
  return sql`(${join(conds, ' OR ')})`;
}

const EVENT_TYPES = new Set(['log', 'message', 'other-events']);
/** True when every selected system is an event system (so duration stats make no sense). */
export function allEventSystems(systems: readonly string[]): boolean {
  return systems.length > 0 && systems.every((s) => s === 'events:all' || EVENT_TYPES.has(s.split(':')[0]));
}

export interface RangeScope {
  projectId: number;
  gte: Date;
  lt: Date;
  systems: readonly string[];
  groupId?: bigint;
  /** Only the groups this SQL selects (their `group_id`): the series a time series can keep (builders.ts topGroups). */
  groupsIn?: SqlFragment;
  /**
   * The hours (unix seconds) whose `span_systems_5m` windows all hold their minute rows' count, asked
   * before the query (rollup.ts systemHoursSql); without it the rollup SQL checks the hours itself.
   */
  systemHours?: readonly number[];
}

/**
 * The group conditions of a scope (`groupId`, `groupsIn`), over `s.group_id` of any span table.
 * `GLOBAL IN`: on a cluster the groups are found once, over every shard, and sent to each (a plain
 * IN of a `Distributed` table inside a query of one is refused, and would count per shard).
 */
export function groupConds(scope: RangeScope): SqlFragment[] {
  const conds: SqlFragment[] = [];
  if (scope.groupId !== undefined) conds.push(sql`s.group_id = ${param.uint64(scope.groupId)}`);
  if (scope.groupsIn) conds.push(sql`s.group_id GLOBAL IN (${scope.groupsIn})`);
  return conds;
}

/** Project, time range, system and group: the conditions every query starts from. */
export function baseWhere(scope: RangeScope): SqlFragment[] {
  const conds = [
    sql`s.project_id = ${param.uint32(scope.projectId)}`,
    sql`s.time >= ${param.time(scope.gte)}`,
    sql`s.time < ${param.time(scope.lt)}`,
  ];
  const sys = systemClause(scope.systems);
  if (sys) conds.push(sys);
  conds.push(...groupConds(scope));
  return conds;
}

export const whereSql = (scope: RangeScope, q: CompiledQuery): SqlFragment =>
  join([...baseWhere(scope), ...q.where], ' AND ');
