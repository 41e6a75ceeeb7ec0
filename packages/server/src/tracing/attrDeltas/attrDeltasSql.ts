import { PROMOTED_ATTRS } from '@lantern/shared';
import { ident, join, param, sql, type SqlFragment } from '../../storage/sql';
import { durationBin, SPAN_SAMPLE_SCALE } from '../../storage/telemetry';
import { groupingPeriodMs } from '../query/builders';
import type { CompiledQuery } from '../query/compile';
import { IS_SPAN_SQL } from '../query/eventTypes';
import { whereSql, type RangeScope } from '../query/scope';
import { complement, heatmapRollupSql, rangesSql, type Range } from './heatmapRollup';

/**
 * SQL of "What changed" (issue 38) over `spans_index AS s` (or its trace sample `spans_sample`, the
 * same columns), as pure functions of the request. The selection and the query are compiled by the
 * query language's compiler (compile.ts); every user value is a bound parameter.
 */

const FROM = sql`FROM spans_index AS s`;
/** Where the sampled rows are read: `sample`, the 2 % of traces kept in spans_sample (storage/telemetry/spanSample.ts). */
export type DeltaSource = 'index' | 'sample';
const FROM_SOURCE: Record<DeltaSource, SqlFragment> = { index: FROM, sample: sql`FROM spans_sample AS s` };

/** The selection's filters as one boolean (ANDed where parts). */
export const selectionExpr = (sel: CompiledQuery): SqlFragment => join(sel.where, ' AND ');

/** How many spans match the query, and how many of them the selection (exact: it sets the sample rates). */
export function deltaCountsSql(scope: RangeScope, q: CompiledQuery, sel: CompiledQuery): SqlFragment {
  return sql`SELECT count() AS n, countIf(${selectionExpr(sel)}) AS ns ${FROM} WHERE ${whereSql(scope, q)}`;
}

/** Sample rates are parts of this: `cityHash64(trace_id) % SAMPLE_SCALE < k` (spans_sample's hash space). */
export const SAMPLE_SCALE = SPAN_SAMPLE_SCALE;

/** The built-in fields compared beside the attributes, as text (a span's duration only on spans). */
const BUILTIN_FIELDS: [string, SqlFragment][] = [
  ['.system', sql`toString(r.system)`],
  ['.kind', sql`r.kind`],
  ['.name', sql`r.name`],
  ['.status_code', sql`r.status_code`],
  ['.duration', sql`if(r.is_span, toString(r.duration), '')`],
];

/**
 * The column attributes compared: not the long texts (statements, messages), which are near-unique
 * and left out anyway, and whose reading was a large part of a sample's cost.
 */
const LONG_TEXT = new Set<string>(['db_statement', 'log_message', 'exception_message']);
const COMPARED_COLUMNS = PROMOTED_ATTRS.filter(([, column]) => !LONG_TEXT.has(column));

/** What the sample reads of each span, for the pairs below. */
const SAMPLED_COLUMNS = join(
  [
    ...['attr_keys', 'attr_values', 'system', 'kind', 'name', 'status_code', 'duration']
      .concat(COMPARED_COLUMNS.map(([, column]) => column))
      .map((c) => sql`s.${ident(c)} AS ${ident(c)}`),
    sql`${IS_SPAN_SQL} AS is_span`,
  ],
  ', ',
);

/**
 * Every (key, value) of a sampled row (`r`, the columns SAMPLED_COLUMNS read) as two arrays: the
 * attributes of the arrays, the column attributes and the built-in fields (a pair with '' is
 * dropped after the ARRAY JOIN: not set), and ('', '*'): the row itself, so the answer carries the
 * sampled totals. Plain arrays, not tuples filtered by a lambda: 3x cheaper.
 */
const FIELDS: [string, SqlFragment][] = [
  ...COMPARED_COLUMNS.map(([attr, column]): [string, SqlFragment] => [attr, sql`toString(r.${ident(column)})`]),
  ...BUILTIN_FIELDS,
];
const ROW_KEYS = sql`arrayConcat(r.attr_keys, ${param.strings([...FIELDS.map(([k]) => k), ''])})`;
const ROW_VALUES = sql`arrayConcat(r.attr_values, [${join(
  FIELDS.map(([, e]) => e),
  ', ',
)}, '*'])`;

/** Values of a key kept per side (the most frequent): a value that differs by more than 5 points is among them. */
export const TOP_VALUES = 20;
/** A numeric key is compared by these quantile bins of its values (selection and baseline together). */
const BIN_LEVELS = sql`0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9`;
/** A key of numbers with at most this many distinct values is compared value by value (a status code). */
export const FEW_VALUES = 10;

/**
 * One row per key over the sampled spans: how many distinct values it has, how many spans of each
 * side have it (`ps`, `pb`), the most frequent values of each side with their counts (`topS`,
 * `topB`), and for a key whose every value is a number with more than FEW_VALUES of them, its
 * quantile bins (`edges`: the values where bins 1.. start; `bins`: per bin the counts of each
 * side; `lo`, `hi`: the smallest and largest value). The key '' counts the sampled spans.
 * The sample: traces whose `cityHash64(trace_id) % SAMPLE_SCALE` is below `kS` for the selection's
 * spans and `kB` for the others, so one trace is in or out as a whole, on every request. From
 * `sample` (spans_sample, every row of the traces below SPAN_SAMPLE_K) with both k at most
 * SPAN_SAMPLE_K, the rows are the same as from `index`, and a day of them is a small range to read.
 */
export function deltaRowsSql(
  scope: RangeScope,
  q: CompiledQuery,
  sel: CompiledQuery,
  sample: { kS: number; kB: number; source?: DeltaSource },
): SqlFragment {
  const sampleCond =
    sample.kS >= SAMPLE_SCALE && sample.kB >= SAMPLE_SCALE
      ? sql``
      : sql` AND cityHash64(s.trace_id) % ${param.uint32(SAMPLE_SCALE)} < if(${selectionExpr(sel)}, ${param.uint32(sample.kS)}, ${param.uint32(sample.kB)})`;
  // The sampled rows' columns first, their pairs built after: the engine built every row's pairs
  // before filtering when both were one step (several times slower).
  const pairs = sql`SELECT k, v, countIf(r.sel) AS ns, countIf(NOT r.sel) AS nb
    FROM (SELECT ${selectionExpr(sel)} AS sel, ${SAMPLED_COLUMNS} ${FROM_SOURCE[sample.source ?? 'index']} PREWHERE ${whereSql(scope, q)}${sampleCond}) AS r
    ARRAY JOIN ${ROW_KEYS} AS k, ${ROW_VALUES} AS v WHERE v != '' GROUP BY k, v`;
  const top = TOP_VALUES;
  return sql`SELECT k, count() AS distinctValues, sum(ns) AS ps, sum(nb) AS pb,
      countIf(isNull(toFloat64OrNull(v))) = 0 AND count() > ${param.uint32(FEW_VALUES)} AS isNum,
      arraySlice(arrayReverseSort(x -> x.2, groupArray((v, ns, nb))), 1, ${param.uint32(top)}) AS topS,
      arraySlice(arrayReverseSort(x -> x.3, groupArray((v, ns, nb))), 1, ${param.uint32(top)}) AS topB,
      groupArrayIf((toFloat64OrZero(v), ns, nb), isNotNull(toFloat64OrNull(v))) AS nums,
      if(isNum, arrayDistinct(quantilesExactWeightedIf(${BIN_LEVELS})(toFloat64OrZero(v), ns + nb, isNotNull(toFloat64OrNull(v)))), []) AS edges,
      arrayMap(x -> arrayCount(e -> e <= x.1, edges), nums) AS binOf,
      arrayMap(i -> (arraySum(arrayMap((b, x) -> if(b = i, x.2, 0), binOf, nums)), arraySum(arrayMap((b, x) -> if(b = i, x.3, 0), binOf, nums))),
        range(if(isNum, length(edges) + 1, 0))) AS bins,
      if(isNum, min(toFloat64OrZero(v)), 0) AS lo, if(isNum, max(toFloat64OrZero(v)), 0) AS hi
    FROM (${pairs})
    GROUP BY k`;
}

/** The duration heatmap's buckets: at most 60 over the range. */
export const heatmapBucketMs = (scope: RangeScope) => groupingPeriodMs(scope.lt.getTime() - scope.gte.getTime(), 60);

const BIN = durationBin('s.duration');

/**
 * The duration heatmap: spans per time bucket and duration bin. Bins are 1, 2, 5 x 10^n ns: bin
 * `3n`, `3n + 1`, `3n + 2` start at 1, 2, 5 x 10^n (durationBinStart, storage's durationBin).
 * `rolled`: time ranges whose counts come from the rows per duration bin (heatmapRollup.ts), the
 * spans answering the rest of the range.
 */
export function durationHeatmapSql(scope: RangeScope, q: CompiledQuery, rolled: readonly Range[] | null = null) {
  const bucketMs = heatmapBucketMs(scope);
  const bucket = sql`toStartOfInterval(s.time, toIntervalMinute(${param.uint32(bucketMs / 60_000)}))`;
  const spans = (ranges: SqlFragment | null) =>
    sql`SELECT toUnixTimestamp(${bucket}) AS t, ${BIN} AS b, count() AS n ${FROM} WHERE ${whereSql(scope, q)}${ranges ? sql` AND ${ranges}` : sql``} AND ${IS_SPAN_SQL} GROUP BY t, b`;
  const tail = sql` ORDER BY t, b LIMIT 100000`;
  if (!rolled?.length) return { bucketMs, sql: sql`${spans(null)}${tail}` };
  const rest = complement(scope.gte.getTime(), scope.lt.getTime(), rolled);
  const parts = [
    heatmapRollupSql(scope, rolled, bucket, IS_SPAN_SQL),
    ...(rest.length ? [spans(rangesSql(rest))] : []),
  ];
  return { bucketMs, sql: sql`SELECT t, b, sum(n) AS n FROM (${join(parts, ' UNION ALL ')}) GROUP BY t, b${tail}` };
}

/** Where duration bin `b` starts, in ns: 1, 2, 5 x 10^floor(b / 3). */
export function durationBinStart(b: number): number {
  return [1, 2, 5][((b % 3) + 3) % 3] * 10 ** Math.floor(b / 3);
}
