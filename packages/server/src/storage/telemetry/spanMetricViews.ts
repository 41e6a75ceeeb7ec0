import { parseAliased, parseSpanExpr, SPAN_COLUMNS, spanMetricViewKey, type SpanExpr, type SpanMetricDefinition } from '../../config';
import { ATTR_COLUMNS } from './spanRowEncoding';

/**
 * Metrics from spans (reference ingest §3.5, docs/decisions/metrics-from-spans.md): per
 * `metrics_from_spans` definition, two materialized views over spans_index, (re)created at every
 * start from the config:
 *
 * - `span_metric_<name>_mv` -> datapoint_minutes: one row per (project, minute, attribute set) of
 *   each insert, folded by the table's engine like the rows of the OTLP path, so a span
 *   acknowledged is a datapoint stored (same insert, same commit) and a query over a day reads
 *   series x minutes rows. Histograms keep (representative value -> count) buckets, exponential
 *   with 8 buckets per doubling (OTel scale 3: each bucket is 9 % wide), so a quantile is within
 *   one bucket of the spans' own.
 * - `span_metric_<name>_catalog_mv` -> metrics_catalog: one row per project and insert, so the
 *   metric is listed (GET /api/v1/metrics/:projectId) for the projects that have such spans, as
 *   long as they have them.
 *
 * Views of definitions no longer in the config are dropped.
 */
export const SPAN_METRIC_VIEW_PREFIX = 'span_metric_';
const BUCKETS_PER_DOUBLING = 8;

/** Attribute keys stored in a column of their own (`display.name` is the row's display name). */
const INDEXED = new Map<string, string>([...ATTR_COLUMNS.map(([attr, column]): [string, string] => [attr, column]), ['display.name', 'display_name']]);

interface Compiled {
  sql: string;
  type: 'number' | 'string';
}

export function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

const asNumber = (c: Compiled): string => (c.type === 'number' ? c.sql : `toFloat64OrZero(toString(${c.sql}))`);

export function compileSpanExpr(e: SpanExpr): Compiled {
  switch (e.kind) {
    case 'number':
      return { sql: String(e.value), type: 'number' };
    case 'string':
      return { sql: quoteString(e.value), type: 'string' };
    case 'column':
      if (e.name === 'is_event') return { sql: `(event_name != '')`, type: 'number' };
      if (e.name === 'standalone') return { sql: 'toUInt8(standalone)', type: 'number' };
      if (e.name === 'trace_id') return { sql: `replaceAll(toString(trace_id), '-', '')`, type: 'string' };
      return { sql: e.name, type: SPAN_COLUMNS[e.name] };
    case 'attr': {
      const column = INDEXED.get(e.key);
      return { sql: column ?? `attr_values[indexOf(attr_keys, ${quoteString(e.key)})]`, type: 'string' };
    }
    case 'unary': {
      const arg = compileSpanExpr(e.arg);
      return { sql: e.op === '-' ? `(-${asNumber(arg)})` : `(NOT ${asNumber(arg)})`, type: 'number' };
    }
    case 'binary': {
      const l = compileSpanExpr(e.left);
      const r = compileSpanExpr(e.right);
      if (['+', '-', '*', '/'].includes(e.op)) return { sql: `(${asNumber(l)} ${e.op} ${asNumber(r)})`, type: 'number' };
      if (e.op === 'and' || e.op === 'or') return { sql: `(${asNumber(l)} ${e.op.toUpperCase()} ${asNumber(r)})`, type: 'number' };
      // Text against text compares text; a number on either side compares numbers.
      if (l.type === 'string' && r.type === 'string') return { sql: `(toString(${l.sql}) ${e.op} toString(${r.sql}))`, type: 'number' };
      return { sql: `(${asNumber(l)} ${e.op} ${asNumber(r)})`, type: 'number' };
    }
  }
}

const asText = (c: Compiled): string => `toString(${c.sql})`;

export function spanMetricViewNames(name: string): { data: string; catalog: string } {
  const key = spanMetricViewKey(name);
  return { data: `${SPAN_METRIC_VIEW_PREFIX}${key}_mv`, catalog: `${SPAN_METRIC_VIEW_PREFIX}${key}_catalog_mv` };
}

/** The SELECT of the datapoint view (exported for tests and the upgrade backfill). */
export function spanMetricSelect(d: SpanMetricDefinition): string {
  const value = asNumber(compileSpanExpr(parseSpanExpr(d.value)));
  const attrs = d.attrs.map(parseAliased);
  const annotations = d.annotations.map(parseAliased);
  const where = d.where.trim() ? `WHERE ${asNumber(compileSpanExpr(parseSpanExpr(d.where)))}` : '';
  const inner = [
    'project_id AS _p',
    'toStartOfMinute(time) AS _t',
    `toFloat64(${value}) AS _v`,
    ...attrs.map((a, i) => `${asText(compileSpanExpr(a.expr))} AS _a${i}`),
    ...annotations.map((a, i) => `${asText(compileSpanExpr(a.expr))} AS _n${i}`),
  ];
  const attrRefs = attrs.map((_, i) => `_a${i}`);
  const keys = `[${attrs.map((a) => quoteString(a.alias)).join(', ')}]::Array(String)`;
  // The same identity whatever the insert: keys and values, in the configured order.
  const hash = attrs.length ? `sipHash64(${attrs.map((a, i) => `${quoteString(a.alias)}, _a${i}`).join(', ')})` : 'toUInt64(0)';
  const annotationJson = annotations.length
    ? `toJSONString(map(${annotations.map((a, i) => `${quoteString(a.alias)}, any(_n${i})`).join(', ')}))`
    : `''`;
  const valueColumns =
    d.instrument === 'histogram'
      ? [
          'min(_v) AS min',
          'max(_v) AS max',
          'sum(_v) AS sum',
          'count() AS count',
          // Bucket i covers (b^i, b^(i+1)] with b = 2^(1/8); it is represented by its midpoint.
          `sumMap([if(_v > 0, (pow(2, (ceil(log2(_v) * ${BUCKETS_PER_DOUBLING}) - 1) / ${BUCKETS_PER_DOUBLING}) + pow(2, ceil(log2(_v) * ${BUCKETS_PER_DOUBLING}) / ${BUCKETS_PER_DOUBLING})) / 2, 0)], [toUInt64(1)]) AS histogram`,
        ]
      : ['0 AS min', '0 AS max', 'sum(_v) AS sum', 'count() AS count', '([]::Array(Float64), []::Array(UInt64)) AS histogram'];
  return `SELECT _p AS project_id, ${quoteString(d.name)} AS metric, _t AS time, ${hash} AS attrs_hash,
    ${quoteString(d.instrument)} AS instrument, ${valueColumns.join(', ')}, 0 AS gauge,
    ${keys} AS string_keys, [${attrRefs.join(', ')}]::Array(String) AS string_values, ${annotationJson} AS annotations
  FROM (SELECT ${inner.join(', ')} FROM spans_index ${where})
  GROUP BY _p, _t${attrRefs.map((a) => `, ${a}`).join('')}`;
}

function catalogSelect(d: SpanMetricDefinition, unit: string): string {
  const where = d.where.trim() ? `WHERE ${asNumber(compileSpanExpr(parseSpanExpr(d.where)))}` : '';
  const keys = `[${d.attrs.map((a) => quoteString(parseAliased(a).alias)).join(', ')}]::Array(String)`;
  return `SELECT _p AS project_id, ${quoteString(d.name)} AS name, ${quoteString(d.description)} AS description,
    ${quoteString(unit)} AS unit, ${quoteString(d.instrument)} AS instrument, ${keys} AS attr_keys,
    now() AS created_at, now() AS updated_at
  FROM (SELECT project_id AS _p FROM spans_index ${where}) GROUP BY _p`;
}

/**
 * Statements that make the views match the definitions: drop every span-metric view (those of
 * removed definitions too), then create the configured ones. `existing` lists the views present.
 */
export function spanMetricViewStatements(defs: readonly SpanMetricDefinition[], existing: readonly string[]): string[] {
  const out = existing.filter((v) => v.startsWith(SPAN_METRIC_VIEW_PREFIX)).map((v) => `DROP VIEW IF EXISTS ${v}`);
  for (const d of defs) {
    const names = spanMetricViewNames(d.name);
    out.push(`CREATE MATERIALIZED VIEW ${names.data} TO datapoint_minutes AS ${spanMetricSelect(d)}`);
    out.push(`CREATE MATERIALIZED VIEW ${names.catalog} TO metrics_catalog AS ${catalogSelect(d, d.unit)}`);
  }
  return out;
}
