import {
  isAggregate,
  isNumeric,
  MAX_FILTER_TERMS,
  MAX_GROUP_BY_ATTRS,
  parseQuery,
  tooManyFilters,
  tooManyGroupByAttrs,
  unitOf,
  type Name,
  type QueryPart,
} from '@lantern/shared';
import { join, param, sql, type SqlFragment } from '../../storage/sql';
import { IS_SPAN_SQL } from './eventTypes';

import { filterExpr, nameExpr, numericArg, spansOnly, type CompileOptions } from './compileExpr';

/**
 * Compiles parsed query parts to SQL fragments over `spans_index AS s` (reference query §1.4-1.7).
 * Every user value is a bound parameter; every piece of SQL text comes from here or
 * compileExpr.ts. Function
 * names come from the parser's fixed list, never from the query text.
 */

export interface CompiledColumn {
  /** Name in the answer: the alias, or the canonical text. */
  name: string;
  name_: Name;
  expr: SqlFragment;
  unit: string;
  isGroup: boolean;
  isNum: boolean;
  /** Added for display only (`.system`, `display.name` next to `.group_id`); not in `columns`. */
  hidden?: boolean;
}

/**
 * Which parts apply: `full` (groups, timeseries); `filters` (spans, group-stats, percentiles,
 * attr-*: selectors, groupings and where parts with aggregate filters are disabled); `where`
 * (systems: only the span-level filters of where parts, aggregate filters ignored).
 */
export type CompileMode = 'full' | 'filters' | 'where';

export interface CompiledQuery {
  parts: QueryPart[];
  groupBy: CompiledColumn[];
  /** Non-group columns (aggregates), in query order; excludes hidden ones. */
  columns: CompiledColumn[];
  hidden: CompiledColumn[];
  /** One parenthesised fragment per where part; AND them. */
  where: SqlFragment[];
  /** What the span-level filters of `where` test (after aliases), in order. */
  whereNames: Name[];
  having: SqlFragment[];
}

export function compileQuery(
  query: string,
  mode: CompileMode,
  o: CompileOptions,
  opts: { skipFilterOn?: string } = {},
): CompiledQuery {
  const parsed = parseQuery(query);
  const out: CompiledQuery = {
    parts: [],
    groupBy: [],
    columns: [],
    hidden: [],
    where: [],
    whereNames: [],
    having: [],
  };
  const info = parsed.map<QueryPart>((p) => ({
    query: p.text,
    disabled: false,
    error: p.error?.message ?? '',
    range: { start: p.start, end: p.end },
    ...(p.error ? { errorRange: { start: p.error.start, end: p.error.end } } : {}),
  }));
  out.parts = info;
  const fail = (i: number, message: string, at?: { start: number; end: number }) => {
    info[i].error = message;
    info[i].errorRange = at ? { start: at.start, end: at.end } : { ...info[i].range };
  };
  const byName = new Map<string, CompiledColumn>();
  let groupAttrs = 0;
  let filterTerms = 0;

  // Groupings first, then selectors and wheres in textual order (§1.6).
  parsed.forEach((p, i) => {
    if (p.ast?.kind !== 'group') return;
    if (mode !== 'full') return void (info[i].disabled = true);
    if (groupAttrs + p.ast.names.length > MAX_GROUP_BY_ATTRS)
      return fail(i, tooManyGroupByAttrs(groupAttrs + p.ast.names.length));
    groupAttrs += p.ast.names.length;
    const cols: CompiledColumn[] = [];
    for (const n of p.ast.names) {
      if (isAggregate(n)) return fail(i, `can't group by the aggregate ${n.text}`, n);
      if (byName.has(n.text)) continue;
      try {
        cols.push({ name: n.text, name_: n, expr: nameExpr(n, o), unit: unitOf(n), isGroup: true, isNum: false });
      } catch (e) {
        return fail(i, (e as Error).message, n);
      }
    }
    for (const c of cols) {
      out.groupBy.push(c);
      byName.set(c.name, c);
    }
  });

  parsed.forEach((p, i) => {
    if (!p.ast || p.error) return;
    if (p.ast.kind === 'select') {
      if (mode !== 'full') return void (info[i].disabled = true);
      const cols: CompiledColumn[] = [];
      for (const c of p.ast.columns) {
        const name = c.alias ?? c.name.text;
        if (!isAggregate(c.name)) {
          if (byName.has(c.name.text) && !c.alias) continue;
          return fail(i, 'must be an agg or a group-by', c);
        }
        if (byName.has(name)) continue;
        try {
          cols.push({
            name,
            name_: c.name,
            expr: nameExpr(c.name, o),
            unit: unitOf(c.name),
            isGroup: false,
            isNum: isNumeric(c.name),
          });
        } catch (e) {
          return fail(i, (e as Error).message, c);
        }
      }
      for (const c of cols) {
        out.columns.push(c);
        byName.set(c.name, c);
      }
      return;
    }
    if (p.ast.kind !== 'where') return;
    const filters = p.ast.filters;
    if (filterTerms + filters.length > MAX_FILTER_TERMS) return fail(i, tooManyFilters(filterTerms + filters.length));
    filterTerms += filters.length;
    // A bare name that is a column alias filters on that column (`p99(.duration) as slow | where slow > 1s`).
    const resolved = filters.map((f) => {
      const col = f.lhs.func === null ? byName.get(f.lhs.attr) : undefined;
      return { f, agg: col ? !col.isGroup : isAggregate(f.lhs), col };
    });
    const anyAgg = resolved.some((r) => r.agg);
    if (anyAgg && mode === 'filters') return void (info[i].disabled = true);
    if (anyAgg && resolved.some((r) => !r.agg) && filters.some((f) => f.connector === 'or')) {
      return fail(i, "can't combine span filters and aggregate filters with or; use separate where parts", p);
    }
    const where: SqlFragment[] = [];
    const whereNames: Name[] = [];
    const having: SqlFragment[] = [];
    try {
      for (const { f, agg, col } of resolved) {
        if (opts.skipFilterOn !== undefined && f.lhs.func === null && f.lhs.attr === opts.skipFilterOn) continue;
        const target = agg ? having : where;
        const expr = col ? filterExpr({ ...f, lhs: col.name_ }, o) : filterExpr(f, o);
        target.push(target.length === 0 ? expr : f.connector === 'or' ? sql` OR ${expr}` : sql` AND ${expr}`);
        if (!agg) whereNames.push(col?.name_ ?? f.lhs);
      }
    } catch (e) {
      return fail(i, (e as Error).message, p);
    }
    if (where.length) out.where.push(sql`(${join(where, '')})`);
    out.whereNames.push(...whereNames);
    if (having.length && mode === 'full') out.having.push(sql`(${join(having, '')})`);
  });

  shareQuantiles(out.columns, o);
  if (out.groupBy.some((c) => c.name === '.group_id')) {
    for (const [name, expr] of [
      ['.system', sql`any(s.system)`],
      ['display.name', sql`any(s.display_name)`],
    ] as const) {
      if (!byName.has(name))
        out.hidden.push({
          name,
          name_: { func: null, attr: name, text: name, start: 0, end: 0 },
          expr,
          unit: '',
          isGroup: false,
          isNum: false,
          hidden: true,
        });
    }
  }
  return out;
}

/** Percentile functions and their levels, as our own SQL text. */
export const QUANTILE_LEVELS: Partial<Record<string, SqlFragment>> = {
  p50: sql`0.5`,
  p75: sql`0.75`,
  p90: sql`0.9`,
  p95: sql`0.95`,
  p99: sql`0.99`,
};

/**
 * Several percentiles of one attribute (`{p50,p90,p99}(.duration)`) share one digest:
 * `quantilesTDigest(0.5, 0.9, 0.99)(x)[i]`; the engine computes the identical aggregate once.
 */
export function shareQuantiles<C extends { name_: Name; expr: SqlFragment }>(columns: C[], o: CompileOptions): void {
  const byAttr = new Map<string, C[]>();
  for (const c of columns)
    if (c.name_.func && QUANTILE_LEVELS[c.name_.func])
      byAttr.set(c.name_.attr, [...(byAttr.get(c.name_.attr) ?? []), c]);
  for (const cols of byAttr.values()) {
    if (cols.length < 2) continue;
    const levels = join(
      cols.map((c) => QUANTILE_LEVELS[c.name_.func!]!),
      ', ',
    );
    const x = numericArg(cols[0].name_, o);
    const digest = spansOnly(cols[0].name_)
      ? sql`quantilesTDigestIf(${levels})(${x}, ${IS_SPAN_SQL})`
      : sql`quantilesTDigest(${levels})(${x})`;
    cols.forEach((c, i) => (c.expr = sql`arrayElement(${digest}, ${param.uint8(i + 1)})`));
  }
}
