import { parseAliased, parseSpanExpr, SPAN_COLUMNS, type SpanExpr, type SpanMetricDefinition } from '../../config';
import { ATTR_COLUMNS } from './spanRowEncoding';

/**
 * Metrics from spans (reference ingest §3.5, docs/decisions/metrics-from-spans.md): two
 * materialized views over spans_index for all `metrics_from_spans` definitions, (re)created at
 * every start from the config:
 *
 * - `span_metrics_mv` -> datapoint_minutes: one row per (project, minute, metric, attribute set) of
 *   each insert, folded by the table's engine like the rows of the OTLP path, so a span
 *   acknowledged is a datapoint stored (same insert, same commit) and a query over a day reads
 *   series x minutes rows. Histograms keep (representative value -> count) buckets, exponential
 *   with 8 buckets per doubling (OTel scale 3: each bucket is 9 % wide), so a quantile is within
 *   one bucket of the spans' own.
 * - `span_metrics_catalog_mv` -> metrics_catalog: one row per project, metric and insert, so the
 *   metric is listed (GET /api/v1/metrics/:projectId) for the projects that have such spans, as
 *   long as they have them.
 *
 * Views of earlier configs are dropped. Definitions are told apart by their index `_d`.
 */
export const SPAN_METRIC_VIEW_PREFIX = 'span_metric';
const BUCKETS_PER_DOUBLING = 8;

/** Attribute keys stored in a column of their own (`display.name` is the row's display name). */
const INDEXED = new Map<string, string>([
  ...ATTR_COLUMNS.map(([attr, column]): [string, string] => [attr, column]),
  ['display.name', 'display_name'],
]);

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
      if (['+', '-', '*', '/'].includes(e.op))
        return { sql: `(${asNumber(l)} ${e.op} ${asNumber(r)})`, type: 'number' };
      if (e.op === 'and' || e.op === 'or')
        return { sql: `(${asNumber(l)} ${e.op.toUpperCase()} ${asNumber(r)})`, type: 'number' };
      // Text against text compares text; a number on either side compares numbers.
      if (l.type === 'string' && r.type === 'string')
        return { sql: `(toString(${l.sql}) ${e.op} toString(${r.sql}))`, type: 'number' };
      return { sql: `(${asNumber(l)} ${e.op} ${asNumber(r)})`, type: 'number' };
    }
  }
}

const asText = (c: Compiled): string => `toString(${c.sql})`;

/** The two views; every span-metric view name starts with SPAN_METRIC_VIEW_PREFIX. */
export const SPAN_METRIC_VIEWS = { data: 'span_metrics_mv', catalog: 'span_metrics_catalog_mv' } as const;

const whereOf = (d: SpanMetricDefinition): string =>
  d.where.trim() ? asNumber(compileSpanExpr(parseSpanExpr(d.where))) : '1';
const textArray = (xs: readonly string[]): string => `[${xs.map(quoteString).join(', ')}]::Array(String)`;
/** `arr[_d + 1]` picks definition _d's entry from a constant array. */
const pick = (xs: readonly string[]): string => `[${xs.join(', ')}][_d + 1]`;
const byDefinition = (xs: readonly string[], otherwise: string): string =>
  xs.length === 1 ? xs[0] : `multiIf(${xs.map((x, i) => `_d = ${i}, ${x}`).join(', ')}, ${otherwise})`;

/**
 * The SELECT of the datapoint view: every definition in one view, so an insert pays for one view
 * and one datapoint part whatever the number of definitions (each view and each part written costs
 * the insert several ms, more than the rows' own work: bench/ingest). Each span row is repeated
 * once per definition (`ARRAY JOIN`, `_d`), kept where that definition's `where` holds, and
 * grouped per (project, minute, definition, attribute values).
 */
export function spanMetricSelect(defs: readonly SpanMetricDefinition[]): string {
  const attrs = defs.map((d) => d.attrs.map(parseAliased));
  const annotations = defs.map((d) => d.annotations.map(parseAliased));
  const nAttrs = Math.max(0, ...attrs.map((a) => a.length));
  const nAnn = Math.max(0, ...annotations.map((a) => a.length));
  const inner = [
    'project_id AS _p',
    'toStartOfMinute(time) AS _t',
    '_d',
    `toFloat64(${byDefinition(
      defs.map((d) => asNumber(compileSpanExpr(parseSpanExpr(d.value)))),
      '0',
    )}) AS _v`,
    ...Array.from(
      { length: nAttrs },
      (_, i) =>
        `${byDefinition(
          attrs.map((a) => (a[i] ? asText(compileSpanExpr(a[i].expr)) : "''")),
          "''",
        )} AS _a${i}`,
    ),
    ...Array.from(
      { length: nAnn },
      (_, i) =>
        `${byDefinition(
          annotations.map((a) => (a[i] ? asText(compileSpanExpr(a[i].expr)) : "''")),
          "''",
        )} AS _n${i}`,
    ),
  ];
  const where = byDefinition(defs.map(whereOf), '0');
  const attrRefs = Array.from({ length: nAttrs }, (_, i) => `_a${i}`);
  const isHistogram = pick(defs.map((d) => (d.instrument === 'histogram' ? '1' : '0')));
  const annotationJson = byDefinition(
    annotations.map((a) =>
      a.length ? `toJSONString(map(${a.map((x, i) => `${quoteString(x.alias)}, any(_n${i})`).join(', ')}))` : "''",
    ),
    "''",
  );
  // Bucket i covers (b^i, b^(i+1)] with b = 2^(1/8); it is represented by its midpoint.
  const k = BUCKETS_PER_DOUBLING;
  const bucket = `if(_v > 0, (pow(2, (ceil(log2(_v) * ${k}) - 1) / ${k}) + pow(2, ceil(log2(_v) * ${k}) / ${k})) / 2, 0)`;
  return `SELECT _p AS project_id, ${pick(defs.map((d) => quoteString(d.name)))} AS metric, _t AS time,
    sipHash64(${[pick(defs.map((d) => quoteString(d.name))), ...attrRefs].join(', ')}) AS attrs_hash, ${pick(defs.map((d) => quoteString(d.instrument)))} AS instrument,
    if(${isHistogram}, min(_v), 0) AS min, if(${isHistogram}, max(_v), 0) AS max, sum(_v) AS sum, count() AS count, 0 AS gauge,
    if(${isHistogram}, sumMap([${bucket}], [toUInt64(1)]), ([]::Array(Float64), []::Array(UInt64))) AS histogram,
    ${pick(defs.map((_, i) => textArray(attrs[i].map((a) => a.alias))))} AS string_keys,
    arraySlice([${attrRefs.join(', ')}]::Array(String), 1, ${pick(attrs.map((a) => String(a.length)))}) AS string_values,
    ${annotationJson} AS annotations
  FROM (SELECT ${inner.join(', ')} FROM spans_index ARRAY JOIN range(${defs.length}) AS _d WHERE ${where})
  GROUP BY _p, _t, _d${attrRefs.map((a) => `, ${a}`).join('')}`;
}

/** The catalogue view: per insert, one row per project and definition that had matching rows. */
function catalogSelect(defs: readonly SpanMetricDefinition[]): string {
  const entries = defs.map(
    (d) =>
      `(${[d.name, d.description, d.unit, d.instrument].map(quoteString).join(', ')}, ${textArray(d.attrs.map((a) => parseAliased(a).alias))})`,
  );
  const has = defs.map((d, i) => `max(toUInt8(${whereOf(d)} != 0)) AS _h${i}`);
  return `SELECT _p AS project_id, _e.1 AS name, _e.2 AS description, _e.3 AS unit, _e.4 AS instrument, _e.5 AS attr_keys,
    now() AS created_at, now() AS updated_at
  FROM (SELECT project_id AS _p, ${has.join(', ')} FROM spans_index GROUP BY _p)
  ARRAY JOIN arrayFilter((e, h) -> h = 1, [${entries.join(', ')}], [${defs.map((_, i) => `_h${i}`).join(', ')}]) AS _e`;
}

/**
 * Statements that make the views match the definitions: drop every span-metric view (those of
 * earlier configs too), then create the two views of the configured ones (none for none).
 */
export function spanMetricViewStatements(defs: readonly SpanMetricDefinition[], existing: readonly string[]): string[] {
  const out = existing.filter((v) => v.startsWith(SPAN_METRIC_VIEW_PREFIX)).map((v) => `DROP VIEW IF EXISTS ${v}`);
  if (defs.length === 0) return out;
  out.push(`CREATE MATERIALIZED VIEW ${SPAN_METRIC_VIEWS.data} TO datapoint_minutes AS ${spanMetricSelect(defs)}`);
  out.push(`CREATE MATERIALIZED VIEW ${SPAN_METRIC_VIEWS.catalog} TO metrics_catalog AS ${catalogSelect(defs)}`);
  return out;
}
