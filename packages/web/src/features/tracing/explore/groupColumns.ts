import { BUILTIN_FIELDS, type ColumnInfo, type GroupRow, parseQuery, toText } from '@lantern/shared';
import { defaultGroupQuery, joinQuery, whereQuery } from '../query/defaultQueries';

/**
 * Which columns the groups table shows and how their headers read (reference frontend §1.3.9):
 * numeric non-group columns are plottable; `.system` gets its own column; `.group_id` and
 * `display.name` hide behind the group name; `.error_count` reads 'errors', `.error_rate` 'err%',
 * `p50(.duration)` 'p50'.
 */
export function plottableColumns(columns: ColumnInfo[]): ColumnInfo[] {
  return columns.filter((c) => c.isNum && !c.isGroup);
}

/**
 * The column a query's groups plot when none is chosen, as far as the query tells before its
 * answer: its first aggregate (`.count_per_min` for the default query). The answer's first
 * plottable column (GroupsCard) is what is drawn; this one is only asked ahead, with the groups.
 */
export function firstAggregateOf(query: string): string[] {
  for (const part of parseQuery(query)) {
    if (part.ast?.kind !== 'select') continue;
    const first = part.ast.columns.find((c) => c.name.func !== null || BUILTIN_FIELDS[c.name.attr]?.aggregate);
    if (first) return [first.name.text];
  }
  return [];
}

export function plainColumns(columns: ColumnInfo[]): ColumnInfo[] {
  return columns.filter(
    (c) => !(c.isNum && !c.isGroup) && !['.system', '.group_id', 'display.name', '.display_name'].includes(c.name),
  );
}

export function headerLabel(name: string): string {
  if (name === '.error_count') return 'errors';
  if (name === '.error_rate') return 'err%';
  const fn = /^(\w+)\(\.duration\)$/.exec(name);
  if (fn) return fn[1];
  return name.replace(/^span\./, '').replace(/^\.([a-z]+)_per_([a-z]+)$/, '.$1/$2');
}

/**
 * An error rate: a bucket without spans had no errors, so its sparkline draws 0 there (a group that
 * never failed shows a 0 line, not a dot at each bucket that had spans).
 */
export const isErrorRate = (name: string) => name === '.error_rate' || name === '.error_pct';

/** Sorts the whole list (not just the page) by a column; missing values last. */
export function sortGroups<T extends GroupRow>(groups: T[], column: string | undefined, desc: boolean): T[] {
  if (!column) return groups;
  const dir = desc ? -1 : 1;
  return [...groups].sort((a, b) => {
    const x = a[column];
    const y = b[column];
    if (x === y) return 0;
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return toText(x).localeCompare(toText(y)) * dir;
  });
}

/**
 * The spans of one group row (the Groups and Timeseries tabs expand a row into them): the row's
 * system (its `.system` value, else the only chosen one), and the page's where parts, the default
 * group query of that system and the row's own `where` as the query.
 */
export function groupSpans(
  group: Pick<GroupRow, '_query'> & Record<string, unknown>,
  pageQuery: string | undefined,
  systems: string[],
): { system: string | undefined; systems: string[]; query: string } {
  const system =
    typeof group['.system'] === 'string' ? group['.system'] : systems.length === 1 ? systems[0] : undefined;
  const query = joinQuery([
    pageQuery ? whereQuery(pageQuery) : undefined,
    defaultGroupQuery(system ? [system] : systems),
    group._query,
  ]);
  return { system, systems: system ? [system] : systems, query };
}
