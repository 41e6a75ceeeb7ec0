import {
  BUILTIN_FIELDS,
  isBuiltin,
  isNumeric,
  UINT64_FIELDS,
  type Filter,
  type Literal,
  type Name,
} from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment, type SqlParam } from '../../storage/sql';
import { EVENT_TYPES_SQL, IS_ERROR_SQL, IS_SPAN_SQL } from './eventTypes';
import { ATTR_COLUMNS } from '../../storage/telemetry/spanRowEncoding';

/**
 * The expressions of the query language over `spans_index AS s` (reference query §1.4-1.7):
 * attributes, aggregates of them and filters. Every user value is a bound parameter; every piece
 * of SQL text comes from here or compile.ts. Function names come from the parser's fixed list,
 * never from the query text.
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

/** Whether an attribute is read from the arrays (attr_keys / attr_values): not built in, no column. */
const inArrays = (attr: string, o: CompileOptions) => !isBuiltin(attr) && !o.attrColumns?.[attr] && !COLUMN_ATTRS[attr];

/** The expression of an attribute (no function applied). */
export function attrExpr(attr: string, o: CompileOptions): SqlFragment {
  if (isBuiltin(attr)) return builtinExpr(attr, o);
  return o.attrColumns?.[attr] ?? COLUMN_ATTRS[attr] ?? sql`s.attr_values[indexOf(s.attr_keys, ${param.string(attr)})]`;
}

/**
 * `attr = v` or `attr in (v...)` on an attribute of the arrays holds only where attr_values has a
 * v: said beside the filter, it lets spans_index's bloom filter of attr_values skip the granules
 * without one (migration 13). Not for '' (a missing attribute reads as '') or a number literal
 * of `=` (compared as a number, so "200.0" matches 200).
 */
function valuesGuard(f: Filter, o: CompileOptions): SqlFragment | null {
  if (f.lhs.func !== null || !inArrays(f.lhs.attr, o)) return null;
  if (f.op === '=' && f.values[0].kind === 'string' && f.values[0].value !== '')
    return sql`has(s.attr_values, ${param.string(f.values[0].value)})`;
  if (f.op === 'in' && f.values.every((v) => v.value !== ''))
    return sql`hasAny(s.attr_values, ${param.strings(f.values.map((v) => v.value))})`;
  return null;
}

export class CompileError extends Error {}

export function numericArg(name: Name, o: CompileOptions): SqlFragment {
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
  const guard = valuesGuard(f, o);
  const e = exactFilterExpr(f, o);
  return guard ? sql`(${guard} AND ${e})` : e;
}

function exactFilterExpr(f: Filter, o: CompileOptions): SqlFragment {
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
