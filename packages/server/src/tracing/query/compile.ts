import {
  BUILTIN_FIELDS,
  isAggregate,
  isBuiltin,
  isNumeric,
  parseQuery,
  UINT64_FIELDS,
  unitOf,
  type Filter,
  type Literal,
  type Name,
  type QueryPart,
} from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment, type SqlParam } from '../../storage/sql';
import { EVENT_TYPES_SQL, IS_ERROR_SQL, IS_SPAN_SQL } from './eventTypes';
import { ATTR_COLUMNS } from '../../storage/telemetry/spanRowEncoding';

/**
 * Compiles parsed query parts to SQL fragments over `spans_index AS s` (reference query §1.4-1.7).
 * Every user value is a bound parameter; every piece of SQL text comes from this file. Function
 * names come from the parser's fixed list, never from the query text.
 */

/** Attributes with their own column in spans_index (same table as ingest's encoding). */
const COLUMN_ATTRS: Record<string, SqlFragment> = {
  ...Object.fromEntries(ATTR_COLUMNS.map(([attr, column]) => [attr, sql`s.${ident(column)}`])),
  'display.name': sql`s.display_name`,
};

/**
 * Whether a row has attribute `attr`: its column is set, or its key is in attr_keys (the keys of
 * the attributes without a column; spans_index keeps no list of every key, see migration 4).
 */
export function hasAttrExpr(attr: string, o?: CompileOptions): SqlFragment {
  const column = o?.attrColumns?.[attr] ?? COLUMN_ATTRS[attr];
  return column ? sql`${column} != ''` : sql`has(s.attr_keys, ${param.string(attr)})`;
}

/** Every attribute key a row has: attr_keys, then the column attributes that are set. */
export const ROW_ATTR_KEYS_SQL = sql`arrayConcat(s.attr_keys, arrayFilter(k -> k != '', [${join(
  ATTR_COLUMNS.map(([attr, column]) => sql`if(s.${ident(column)} != '', ${param.string(attr)}, '')`),
  ', ',
)}]))`;

const ERROR_COUNT = sql`sumIf(s.count, ${IS_ERROR_SQL})`;

/** What `per_min` divides by: minutes in the range (or in a bucket for time series). */
export interface CompileOptions {
  minutes: number;
  /** Columns that stand for attributes, over another table than spans_index (rollup.ts). */
  attrColumns?: Readonly<Record<string, SqlFragment>>;
}

function builtinExpr(attr: string, o: CompileOptions): SqlFragment {
  switch (attr) {
    case '.system':
      return sql`s.system`;
    case '.group_id':
      return sql`s.group_id`;
    case '.id':
      return sql`s.id`;
    case '.parent_id':
      return sql`s.parent_id`;
    case '.trace_id':
      return sql`replaceAll(toString(s.trace_id), '-', '')`;
    case '.type':
      return sql`s.type`;
    case '.name':
      return sql`s.name`;
    case '.event_name':
      return sql`s.event_name`;
    case '.display_name':
      return sql`s.display_name`;
    case '.kind':
      return sql`s.kind`;
    case '.status_code':
      return sql`s.status_code`;
    case '.status_message':
      return sql`s.status_message`;
    case '.time':
      return sql`s.time`;
    case '.duration':
      return sql`s.duration`;
    case '.link_count':
      return sql`s.link_count`;
    case '.event_count':
      return sql`s.event_count`;
    case '.event_error_count':
      return sql`s.event_error_count`;
    case '.event_log_count':
      return sql`s.event_log_count`;
    case '.is_event':
      return sql`(s.type IN ${EVENT_TYPES_SQL})`;
    case '.count':
      return sql`sum(s.count)`;
    case '.count_per_min':
      return sql`sum(s.count) / ${param.float64(o.minutes)}`;
    case '.error_count':
      return ERROR_COUNT;
    case '.error_rate':
    case '.error_pct':
      return sql`${ERROR_COUNT} / sum(s.count)`;
  }
  throw new CompileError(`unknown span field "${attr}"`);
}

/** The expression of an attribute (no function applied). */
export function attrExpr(attr: string, o: CompileOptions): SqlFragment {
  if (isBuiltin(attr)) return builtinExpr(attr, o);
  return o.attrColumns?.[attr] ?? COLUMN_ATTRS[attr] ?? sql`s.attr_values[indexOf(s.attr_keys, ${param.string(attr)})]`;
}

export class CompileError extends Error {}

function numericArg(name: Name, o: CompileOptions): SqlFragment {
  if (BUILTIN_FIELDS[name.attr]?.aggregate)
    throw new CompileError(`${name.func}() cannot take the aggregate ${name.attr}`);
  const e = attrExpr(name.attr, o);
  return BUILTIN_FIELDS[name.attr]?.numeric ? sql`toFloat64(${e})` : sql`toFloat64OrDefault(${e})`;
}

function plainArg(name: Name, o: CompileOptions): SqlFragment {
  if (BUILTIN_FIELDS[name.attr]?.aggregate)
    throw new CompileError(`${name.func}() cannot take the aggregate ${name.attr}`);
  return attrExpr(name.attr, o);
}

/**
 * Numeric aggregates as our own SQL text: the plain function, and the one that skips rows failing a
 * condition. Over nothing, `min`/`max` of spans only answer NULL and percentiles and `avg` NaN
 * (null in answers), so a log group's latency reads as missing rather than 0.
 */
const NUMERIC_AGGS: Partial<Record<string, { plain: SqlFragment; onlyIf: SqlFragment }>> = {
  sum: { plain: sql`sum`, onlyIf: sql`sumIf` },
  avg: { plain: sql`avg`, onlyIf: sql`avgIf` },
  min: { plain: sql`min`, onlyIf: sql`minOrNullIf` },
  max: { plain: sql`max`, onlyIf: sql`maxOrNullIf` },
  p50: { plain: sql`quantileTDigest(0.5)`, onlyIf: sql`quantileTDigestIf(0.5)` },
  p75: { plain: sql`quantileTDigest(0.75)`, onlyIf: sql`quantileTDigestIf(0.75)` },
  p90: { plain: sql`quantileTDigest(0.9)`, onlyIf: sql`quantileTDigestIf(0.9)` },
  p95: { plain: sql`quantileTDigest(0.95)`, onlyIf: sql`quantileTDigestIf(0.95)` },
  p99: { plain: sql`quantileTDigest(0.99)`, onlyIf: sql`quantileTDigestIf(0.99)` },
};

/** Only spans have durations: aggregates of `.duration` skip logs and events (whose duration is 0). */
export const spansOnly = (name: Name) => name.attr === '.duration';

function numericAgg(agg: { plain: SqlFragment; onlyIf: SqlFragment }, name: Name, o: CompileOptions): SqlFragment {
  const x = numericArg(name, o);
  return spansOnly(name) ? sql`${agg.onlyIf}(${x}, ${IS_SPAN_SQL})` : sql`${agg.plain}(${x})`;
}

/** The expression of a name: an attribute or an aggregate over one. */
export function nameExpr(name: Name, o: CompileOptions): SqlFragment {
  const numeric = name.func ? NUMERIC_AGGS[name.func] : undefined;
  if (numeric) return numericAgg(numeric, name, o);
  switch (name.func) {
    case null:
      return attrExpr(name.attr, o);
    case 'count':
      return sql`count()`;
    case 'per_min': {
      const m = param.float64(o.minutes);
      if (name.inner) return sql`${nameExpr(name.inner, o)} / ${m}`;
      if (BUILTIN_FIELDS[name.attr]?.aggregate) return sql`${attrExpr(name.attr, o)} / ${m}`;
      return sql`sum(${numericArg(name, o)}) / ${m}`;
    }
    case 'uniq':
      return sql`uniqCombined64(${plainArg(name, o)})`;
    case 'any':
      return sql`any(${plainArg(name, o)})`;
    case 'anyLast':
      return sql`anyLast(${plainArg(name, o)})`;
    case 'top3':
      return sql`topK(3)(${plainArg(name, o)})`;
    case 'top10':
      return sql`topK(10)(${plainArg(name, o)})`;
  }
  throw new CompileError(`unknown function ${name.func}()`);
}

const OPS: Record<'=' | '!=' | '<' | '<=' | '>' | '>=', SqlFragment> = {
  '=': sql`=`,
  '!=': sql`!=`,
  '<': sql`<`,
  '<=': sql`<=`,
  '>': sql`>`,
  '>=': sql`>=`,
};

const asText = (name: Name, e: SqlFragment): SqlFragment =>
  isNumeric(name) || name.attr === '.time' || name.func ? sql`toString(${e})` : e;

function literalParam(v: Literal): SqlParam {
  return v.kind === 'string'
    ? param.string(v.value)
    : v.kind === 'duration'
      ? param.int64(v.num!)
      : param.float64(v.num!);
}

const isUint64Literal = (v: Literal) =>
  v.kind === 'number' && /^\d{1,20}$/.test(v.value) && BigInt(v.value) <= 0xffffffffffffffffn;

/** One filter as a boolean SQL expression (§1.7). */
export function filterExpr(f: Filter, o: CompileOptions): SqlFragment {
  const { lhs, op, values } = f;
  const builtin = lhs.func === null && isBuiltin(lhs.attr);
  if (op === 'exists' || op === 'not exists') {
    if (lhs.func !== null || builtin) return op === 'exists' ? sql`1` : sql`0`;
    const has = hasAttrExpr(lhs.attr, o);
    return op === 'exists' ? has : sql`NOT ${has}`;
  }
  const e = nameExpr(lhs, o);
  if (op === 'in' || op === 'not in') {
    let set: SqlFragment;
    if (builtin && UINT64_FIELDS.has(lhs.attr) && values.every(isUint64Literal)) {
      set = sql`${e} IN (SELECT toUInt64(arrayJoin(${param.strings(values.map((v) => v.value))})))`;
    } else {
      set = sql`${asText(lhs, e)} IN ${param.strings(values.map((v) => v.value))}`;
    }
    return op === 'in' ? set : sql`NOT (${set})`;
  }
  if (op === 'contains' || op === 'not contains') {
    const needles = values[0].value.split('|').filter((s) => s !== '');
    const m = sql`multiSearchAnyCaseInsensitiveUTF8(${asText(lhs, e)}, ${param.strings(needles.length ? needles : [''])})`;
    return op === 'contains' ? m : sql`NOT ${m}`;
  }
  if (op === 'like' || op === 'not like') {
    const m = sql`${asText(lhs, e)} ILIKE ${param.string(values[0].value)}`;
    return op === 'like' ? m : sql`NOT (${m})`;
  }
  const opSql = OPS[op];
  const v = values[0];
  if (lhs.func === null && lhs.attr === '.time') {
    return v.kind === 'string'
      ? sql`s.time ${opSql} parseDateTime64BestEffort(${param.string(v.value)}, 6, 'UTC')`
      : sql`toUnixTimestamp64Micro(s.time) / 1000000 ${opSql} ${param.float64(v.num!)}`;
  }
  if (v.kind === 'string') return sql`${asText(lhs, e)} ${opSql} ${param.string(v.value)}`;
  if (builtin && UINT64_FIELDS.has(lhs.attr) && isUint64Literal(v))
    return sql`${e} ${opSql} ${param.uint64(BigInt(v.value))}`;
  if (isNumeric(lhs)) return sql`${e} ${opSql} ${literalParam(v)}`;
  return sql`toFloat64OrDefault(${e}) ${opSql} ${literalParam(v)}`;
}

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

  // Groupings first, then selectors and wheres in textual order (§1.6).
  parsed.forEach((p, i) => {
    if (p.ast?.kind !== 'group') return;
    if (mode !== 'full') return void (info[i].disabled = true);
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
function shareQuantiles(columns: CompiledColumn[], o: CompileOptions): void {
  const byAttr = new Map<string, CompiledColumn[]>();
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
