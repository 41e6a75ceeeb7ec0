import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TEXT_LENGTH, tooLong } from './textLimits';

/**
 * Metrics API contracts (spec tracing-and-metrics §Metrics, reference query §3 and §6.3–6.4).
 * Times travel as RFC 3339 strings; gaps in series values are `null` (NaN on the server).
 */

/** The five stored instruments, plus `deleted` for a metric the query names but storage lacks. */
export const Instrument = z.enum(['deleted', 'gauge', 'additive', 'counter', 'histogram', 'summary']);
export type Instrument = z.infer<typeof Instrument>;

/** Aggregations the metric picker offers per instrument (spec platform §9). */
export const AGGREGATIONS_BY_INSTRUMENT: Record<Exclude<Instrument, 'deleted'>, readonly string[]> = {
  gauge: ['avg', 'last', 'min', 'max', 'sum'],
  additive: ['sum', 'avg', 'last', 'min', 'max'],
  counter: ['sum', 'per_min', 'per_sec'],
  summary: ['avg', 'last', 'sum', 'count', 'per_min(count)', 'per_sec(count)'],
  histogram: [
    'p50',
    'p75',
    'p90',
    'p95',
    'p99',
    'avg',
    'last',
    'min',
    'max',
    'count',
    'per_min(count)',
    'per_sec(count)',
  ],
};

export const Metric = z.object({
  id: z.string(),
  projectId: z.number().int(),
  name: z.string(),
  description: z.string(),
  instrument: Instrument,
  unit: z.string(),
  attrKeys: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  numTimeseries: z.number().int().optional(),
  /**
   * Derived from spans as they are stored (`metrics_from_spans`): its attributes are the spans'
   * own, so the spans behind a series can be listed (a metric alert's 'Matching spans'). Absent
   * for metrics sent as metrics.
   */
  fromSpans: z.literal(true).optional(),
  /**
   * A classic Prometheus histogram (issue 41): not stored under this name but read from the
   * counters remote write stores for it, `<name>_bucket` (per `le`), `<name>_sum`, `<name>_count`,
   * joined per minute into one histogram (percentiles, heatmap). Absent for stored metrics.
   */
  fromBuckets: z.literal(true).optional(),
});
export type Metric = z.infer<typeof Metric>;

export const MetricsListResponse = z.object({ metrics: z.array(Metric) });
export const MetricsStatsResponse = z.object({ metrics: z.array(Metric), hasMore: z.boolean() });
export const MetricsDescribeResponse = z.object({ metrics: z.array(Metric) });

/**
 * Query-string texts: a query as long as a stored one (dashboards, monitors), names and searches as
 * long as a stored name; the 16 KB URL limit alone let a GET take more than a POST body may store.
 */
const queryText = () => z.string().max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH));
const nameParam = () => z.string().max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH));

/** A `[]` suffix on a query-string name is accepted (axios' default array form, reference §0.1). */
const stringList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .refine((list) => list.every((s) => s.length <= MAX_NAME_LENGTH), tooLong(MAX_NAME_LENGTH));

export const TimeRangeQuery = z.object({
  time_gte: z.string({ error: 'time_gte is required' }),
  time_lt: z.string({ error: 'time_lt is required' }),
});

export const MetricsQueryParams = TimeRangeQuery.extend({
  metric: stringList,
  alias: stringList,
  query: queryText().optional().default(''),
  search: nameParam().optional().default(''),
  sort_by: nameParam().optional().default(''),
  sort_desc: z.string().optional(),
  /**
   * Dashboard variables' values, `name=value` (repeated for several, `name=$__all` for All): they
   * replace `$name` in the query before it runs (metricsQuery/variables.ts).
   */
  var: stringList.refine((l) => l.length <= 1000, 'at most 1000 var values'),
});
export type MetricsQueryParams = z.infer<typeof MetricsQueryParams>;

export const MetricsStatsParams = TimeRangeQuery.partial().extend({
  search_input: nameParam().optional().default(''),
  attr_key: stringList,
  instrument: Instrument.exclude(['deleted'], {
    error: 'instrument must be one of gauge, additive, counter, histogram, summary',
  }).optional(),
});

export const MetricAttrKeysParams = TimeRangeQuery.partial().extend({
  metric: stringList,
  search_input: nameParam().optional().default(''),
});
export const MetricAttrValuesParams = TimeRangeQuery.extend({
  metric: stringList,
  attr_key: z
    .string({ error: '"attr_key" query param is required' })
    .min(1, '"attr_key" query param is required')
    .max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH)),
  search_input: nameParam().optional().default(''),
  /**
   * Only the values of series this filter keeps (`where` parts: a dependent dashboard variable,
   * issue 41), its `$name`s taking `var` as in the metrics calls.
   */
  query: queryText().optional().default(''),
  var: stringList.refine((l) => l.length <= 1000, 'at most 1000 var values'),
});
export const MetricAttrKeysResponse = z.object({
  items: z.array(z.object({ value: z.string(), text: z.string(), count: z.number().int(), pinned: z.boolean() })),
  hasMore: z.boolean(),
});
/** Values of an attribute; `count` is the number of timeseries (of the given metrics) with the value. */
export const MetricAttrValuesResponse = z.object({
  items: z.array(z.object({ value: z.string(), text: z.string(), count: z.number().int() })),
  hasMore: z.boolean(),
});

/** One `|`-separated part of a metrics query with its error (`''` when none) and source range. */
export const MetricQueryPart = z.object({
  query: z.string(),
  error: z.string(),
  disabled: z.boolean().optional(),
});
export const MetricQueryInfo = z.object({ parts: z.array(MetricQueryPart) });

export const MetricColumn = z.object({
  name: z.string(),
  unit: z.string(),
  isGroup: z.boolean(),
  /** Tables and gauges: how the range became one number ("total over the range", "last value"). */
  over: z.string().optional(),
});
export type MetricColumn = z.infer<typeof MetricColumn>;

export const Timeseries = z.object({
  id: z.string(),
  name: z.string(),
  metric: z.string(),
  unit: z.string(),
  attrs: z.record(z.string(), z.string()),
  value: z.array(z.number().nullable()),
});
export type Timeseries = z.infer<typeof Timeseries>;

export const MetricTimeseriesResponse = z.object({
  query: MetricQueryInfo,
  timeseries: z.array(Timeseries),
  time: z.array(z.string()),
  columns: z.array(MetricColumn),
});
export type MetricTimeseriesResponse = z.infer<typeof MetricTimeseriesResponse>;

export const TableRow = z.record(z.string(), z.unknown());
export const TableResponse = z.object({
  query: MetricQueryInfo,
  columns: z.array(MetricColumn),
  items: z.array(TableRow),
  hasMore: z.boolean(),
  order: z.object({ column: z.string(), desc: z.boolean() }),
});
export type TableResponse = z.infer<typeof TableResponse>;

export const GaugeResponse = z.object({ query: MetricQueryInfo, columns: z.array(MetricColumn), values: TableRow });
export type GaugeResponse = z.infer<typeof GaugeResponse>;

export const HeatmapResponse = z.object({
  query: MetricQueryInfo,
  heatmap: z.object({
    xAxis: z.array(z.string()),
    yAxis: z.array(z.tuple([z.number(), z.number()])),
    data: z.array(z.tuple([z.number(), z.number(), z.number()])),
  }),
});
export type HeatmapResponse = z.infer<typeof HeatmapResponse>;
