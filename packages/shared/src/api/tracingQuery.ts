import { z } from 'zod';
import { jsonDepthOver, MAX_JSON_DEPTH } from './jsonDepth';
import { MAX_TEXT_LENGTH, tooLong } from './textLimits';
import { Span } from './tracing';

/**
 * Contracts of the tracing query endpoints (`/api/v1/tracing/{projectId}/...`, reference query
 * §2, §6; spec tracing-and-metrics §7). Request params are query-string text; the server
 * validates them with these schemas after folding `name[]` into `name` and repeated keys into
 * arrays. Times (`time_gte`, `time_lt`) are RFC 3339 (what `Date.toISOString()` sends), Unix
 * seconds, or compact `YYYYMMDDTHHMMSS` UTC. Durations in answers are integer nanoseconds.
 */

/** One value or a list: `system=a&system=b` and `system[]=a` both arrive as a list. */
const stringList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
const boolParam = z
  .union([z.boolean(), z.enum(['1', '0', 't', 'f', 'true', 'false', 'T', 'F', 'TRUE', 'FALSE', 'True', 'False'])])
  .transform((v) => v === true || (typeof v === 'string' && ['1', 't', 'true'].includes(v.toLowerCase())));
const intParam = z
  .union([z.number(), z.string().regex(/^\d{1,9}$/, 'must be a non-negative integer')])
  .transform((v) => Number(v));

/** Parameters every tracing query endpoint takes. */
export const TracingRangeParams = z.object({
  time_gte: z.string({ error: 'time_gte is required' }).min(1, 'time_gte is required'),
  time_lt: z.string({ error: 'time_lt is required' }).min(1, 'time_lt is required'),
  /** `all`, `<type>:all` (e.g. `http:all`, `spans:all`, `events:all`), or an exact system (`db:postgresql`). */
  system: stringList.optional(),
  /** Decimal uint64: restricts to one span group. */
  group_id: z
    .string()
    .regex(/^\d{1,20}$/, 'group_id must be a decimal uint64')
    .optional(),
  /** The query language text: parts joined by ` | `. */
  query: z.string().max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH)).optional(),
});
export type TracingRangeParams = z.input<typeof TracingRangeParams>;

export const SortParams = z.object({
  sort_by: z.string().max(500, tooLong(500)).optional(),
  sort_desc: boolParam.optional(),
});

export const PageParams = z.object({
  /** 1-based. */
  page: intParam.optional(),
  /** Default 1000 for groups, 10 for spans; max 1000. */
  limit: intParam.optional(),
});

/** A 0-based [start, end) character range into the full `query` text. */
export const SourceRange = z.object({ start: z.number().int(), end: z.number().int() });
export type SourceRange = z.infer<typeof SourceRange>;

/**
 * One ` | `-separated part of the query as the server understood it. The UI matches parts by
 * position to decorate its chips. `error` is empty when the part is fine; `errorRange` points at
 * the offending token(s). A disabled part was not applied (e.g. a `group by` on the span list).
 */
export const QueryPart = z.object({
  query: z.string(),
  disabled: z.boolean(),
  error: z.string(),
  /** Where this part sits in the full query text. */
  range: SourceRange,
  /** Present when `error` is non-empty: the bad token(s), in full-query offsets. */
  errorRange: SourceRange.optional(),
});
export type QueryPart = z.infer<typeof QueryPart>;

export const QueryInfo = z.object({ parts: z.array(QueryPart) });
export type QueryInfo = z.infer<typeof QueryInfo>;

export const ColumnInfo = z.object({
  /** Canonical name (`p50(.duration)`, `service.name`) or the alias given with `as`. */
  name: z.string(),
  /** `nanoseconds`, `utilization` (0..1 fraction) or ``. */
  unit: z.string(),
  isGroup: z.boolean(),
  isNum: z.boolean(),
});
export type ColumnInfo = z.infer<typeof ColumnInfo>;

export const Order = z.object({ column: z.string(), desc: z.boolean() });
export type Order = z.infer<typeof Order>;

/** Row helpers every group carries next to its column values. */
export const GroupRow = z
  .object({
    /** Stable id of the row's group-by values (decimal string). */
    _id: z.string(),
    /** Display name: the group's display name when grouped by `.group_id`, else `col="value"` pairs. */
    _name: z.string(),
    /** A `where` part selecting exactly this group, e.g. `where service.name = "api"`. */
    _query: z.string(),
  })
  .catchall(z.unknown());
export type GroupRow = z.infer<typeof GroupRow>;

// ---- systems ---------------------------------------------------------------------------------

export const SystemsParams = TracingRangeParams;
export const SystemStats = z.object({
  projectId: z.number().int(),
  system: z.string(),
  count: z.number(),
  errorCount: z.number(),
  /** Spans per minute over the range. */
  rate: z.number(),
  /** Fraction 0..1. */
  errorRate: z.number(),
  groupCount: z.number(),
});
export type SystemStats = z.infer<typeof SystemStats>;
export const SystemsResponse = z.object({
  systems: z.array(SystemStats),
  /** True when nothing at all matched and no query was given (show the "send data" help). */
  hasNoData: z.boolean(),
  query: QueryInfo,
});
export type SystemsResponse = z.infer<typeof SystemsResponse>;

// ---- groups ----------------------------------------------------------------------------------

/**
 * `{"<column>": (number|null)[], ..., "_time": string[]}` per bucket: an empty bucket is 0 for
 * counts, rates and sums and null (a gap) for durations, percentiles and error rates; `{}` when
 * nothing matched.
 */
export const GroupStatsResponse = z.record(z.string(), z.array(z.union([z.number(), z.string(), z.null()])));
export type GroupStatsResponse = z.infer<typeof GroupStatsResponse>;

/** At most this many rows of a groups answer carry their series (`stats_column`): a page of the Overview. */
export const MAX_GROUP_STATS_ROWS = 15;

export const GroupsParams = TracingRangeParams.extend(SortParams.shape).extend({
  limit: intParam.optional(),
  /**
   * Aggregate columns (as for group-stats, at most 20) whose per-bucket series the answer carries in
   * `stats` for its first `stats_rows` groups: the sparklines of a page in the same call.
   */
  stats_column: stringList.optional(),
  /** How many of the first groups get series; default and max MAX_GROUP_STATS_ROWS. */
  stats_rows: intParam.optional(),
});
export const GroupsResponse = z.object({
  groups: z.array(GroupRow),
  columns: z.array(ColumnInfo),
  query: QueryInfo,
  hasMore: z.boolean(),
  order: Order,
  /**
   * With `stats_column`: the series of the first groups (in the answer's order) by their `_id`, each
   * what group-stats answers for that group's `_query` (`{}` when nothing matched).
   */
  stats: z.record(z.string(), GroupStatsResponse).optional(),
});
export type GroupsResponse = z.infer<typeof GroupsResponse>;

/** 400 answer of `groups` (and other query endpoints) when the backend rejected the query. */
export const InvalidQueryBody = z.object({
  code: z.literal('invalid_query'),
  message: z.string(),
  /** The generated backend query text. */
  query: z.string(),
});
export type InvalidQueryBody = z.infer<typeof InvalidQueryBody>;

// ---- group-stats -----------------------------------------------------------------------------

export const GroupStatsParams = TracingRangeParams.extend({
  /** Canonical column names from `columns[].name` (repeatable, required). */
  column: stringList,
});
// Its answer, GroupStatsResponse, is above: the groups answer carries the same per group (`stats`).

// ---- percentiles -----------------------------------------------------------------------------

export const PercentilesParams = TracingRangeParams;
/** Values per time bucket, aligned with `time`; null is a gap (a bucket with no data to measure). */
export const SeriesValues = z.array(z.number().nullable());
export type SeriesValues = z.infer<typeof SeriesValues>;

/**
 * Arrays aligned with `time`; `rate`/`errorRate` per minute (0 in an empty bucket); durations in
 * ns over spans only (null in a bucket without spans). `{}` when nothing matched.
 */
export const PercentilesResponse = z.object({
  count: z.array(z.number()).optional(),
  rate: z.array(z.number()).optional(),
  time: z.array(z.string()).optional(),
  errorCount: z.array(z.number()).optional(),
  errorRate: z.array(z.number()).optional(),
  p50: SeriesValues.optional(),
  p90: SeriesValues.optional(),
  p99: SeriesValues.optional(),
  max: SeriesValues.optional(),
});
export type PercentilesResponse = z.infer<typeof PercentilesResponse>;

// ---- spans -----------------------------------------------------------------------------------

export const SpansParams = TracingRangeParams.extend(SortParams.shape).extend(PageParams.shape);
export const SpansResponse = z.object({
  spans: z.array(Span),
  count: z.number().int(),
  hasMore: z.boolean(),
  order: Order,
  query: QueryInfo,
});
export type SpansResponse = z.infer<typeof SpansResponse>;

// ---- timeseries ------------------------------------------------------------------------------

export const TimeseriesParams = TracingRangeParams;
/**
 * A group of the timeseries answer: group-by values as scalars, each numeric column as values
 * aligned with `time`. An empty bucket is 0 for counts, rates and sums, null (a gap) for
 * durations, percentiles, averages and error rates.
 */
export const TimeseriesGroup = GroupRow.catchall(
  z.union([SeriesValues, z.string(), z.number(), z.boolean(), z.null()]),
);
export type TimeseriesGroup = z.infer<typeof TimeseriesGroup>;
export const TimeseriesResponse = z.object({
  groups: z.array(TimeseriesGroup),
  time: z.array(z.string()).nullable(),
  columns: z.array(ColumnInfo),
  query: QueryInfo,
});
export type TimeseriesResponse = z.infer<typeof TimeseriesResponse>;

// ---- attribute keys / values -----------------------------------------------------------------

/**
 * Which keys an attr-keys request asks for (reference query §6.1, with `kind`, `with_columns` and
 * `func` honoured rather than ignored):
 * - `text` (default): keys with listable values, for facets and search: the attributes seen and
 *   the text span fields `.system .kind .name .event_name .status_code .status_message`;
 * - `number`: keys with numeric values, for `sum avg min max p50..p99`: the numeric span fields
 *   (`.duration`, counters, ids) and the attributes whose every value in range is a number;
 * - `group`: keys a `group by` can take: the attributes seen and the span fields that name a
 *   group of rows (`.system .group_id .type .name .event_name .display_name .kind .status_code
 *   .status_message`).
 * `with_columns=1` adds every span field a `where` can filter on, aggregates (`.count`,
 * `.error_rate`, ...) included (for `text`; the other kinds add only the fields that fit them).
 * `func=<fn>` asks for the arguments of that function: numeric functions take `number` keys, the
 * others (`uniq any anyLast top3 top10`) any non-aggregate key; it overrides `kind`.
 */
export const ATTR_KEY_KINDS = ['text', 'number', 'group'] as const;
export type AttrKeyKind = (typeof ATTR_KEY_KINDS)[number];
/** Functions whose argument must be numeric (reference query §1.5). */
export const NUMERIC_ARG_FUNCS = ['sum', 'avg', 'min', 'max', 'p50', 'p75', 'p90', 'p95', 'p99'] as const;
/** Functions that take any per-span key. */
export const ANY_ARG_FUNCS = ['uniq', 'any', 'anyLast', 'top3', 'top10'] as const;
export const AttrKeysParams = TracingRangeParams.extend({
  kind: z.enum(ATTR_KEY_KINDS, { error: `kind must be one of ${ATTR_KEY_KINDS.join(', ')}` }).optional(),
  with_columns: boolParam.optional(),
  func: z
    .enum([...NUMERIC_ARG_FUNCS, ...ANY_ARG_FUNCS], {
      error: `func must be one of ${[...NUMERIC_ARG_FUNCS, ...ANY_ARG_FUNCS].join(', ')}`,
    })
    .optional(),
});
export type AttrKeysParams = z.input<typeof AttrKeysParams>;

/** The kind of key a function's argument must be. */
export function attrKeyKindOfFunc(func: string): AttrKeyKind | null {
  if ((NUMERIC_ARG_FUNCS as readonly string[]).includes(func)) return 'number';
  if ((ANY_ARG_FUNCS as readonly string[]).includes(func)) return 'group';
  return null;
}

// ---- top-bar search ----------------------------------------------------------------------------

/**
 * What the top-bar search matches: span names, event names, the display name (a log's
 * `SEVERITY message`, an event's or exception's title; in queries it is the group's name, whose
 * variable parts such as numbers are templated) and the literal log and exception messages.
 */
export const TEXT_SEARCH_KEYS = ['.name', '.event_name', '.display_name', 'log.message', 'exception.message'] as const;

/** A double-quoted string literal of the query language (quotes and backslashes escaped). */
export function quoteQueryString(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The where part of a top-bar search for free text. */
export function textSearchWhere(text: string): string {
  return `where {${TEXT_SEARCH_KEYS.join(',')}} contains ${quoteQueryString(text.trim())}`;
}

/**
 * Where a top-bar search lands, from the systems its where part matched (the `systems` answer):
 * spans → `all` (spans with their logs and events); only logs (maybe with events) → the log
 * groups `log:all`; only events → `events:all`; nothing → `all`.
 */
export function textSearchSystem(matched: readonly { system: string; count: number }[]): string {
  const types = new Set(matched.filter((s) => s.count > 0).map((s) => s.system.split(':')[0]));
  const eventTypes = ['log', 'message', 'other-events', 'events'];
  if ([...types].some((t) => !eventTypes.includes(t))) return 'all';
  if (types.has('log')) return 'log:all';
  if (types.size > 0) return 'events:all';
  return 'all';
}
export const AttrKeysResponse = z.object({ items: z.array(z.object({ value: z.string(), pinned: z.boolean() })) });
export type AttrKeysResponse = z.infer<typeof AttrKeysResponse>;

export const AttrValuesParams = TracingRangeParams.extend({
  attr_key: z
    .string({ error: '"attr_key" query param is required' })
    .min(1, '"attr_key" query param is required')
    .max(500, tooLong(500)),
  search_input: z.string().max(500, tooLong(500)).optional(),
});
export const AttrValuesResponse = z.object({
  /** Ordered by count desc, then value. */
  items: z.array(z.object({ value: z.string(), count: z.number(), hint: z.string() })),
  /** More distinct values exist than were returned (send `search_input` to narrow). */
  hasMore: z.boolean(),
});
export type AttrValuesResponse = z.infer<typeof AttrValuesResponse>;

// ---- saved views -----------------------------------------------------------------------------

/**
 * The longest a saved view's `params` or `query` may be as JSON text: both come from an address
 * bar, which the server takes up to 16 KB of. (Before, each took up to the 1 MB body, and the list
 * answered up to 100 of them.)
 */
export const MAX_VIEW_JSON_LENGTH = 32 * 1024;

/** A free-form JSON object, nested at most MAX_JSON_DEPTH levels, at most MAX_VIEW_JSON_LENGTH as JSON. */
const freeJson = z
  .record(z.string(), z.unknown())
  .refine((v) => !jsonDepthOver(v, MAX_JSON_DEPTH), {
    // Not measured when too deep: JSON.stringify of a 100k-deep value overflows the stack.
    message: `is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
    abort: true,
  })
  .refine(
    (v) => JSON.stringify(v).length <= MAX_VIEW_JSON_LENGTH,
    `is longer than ${MAX_VIEW_JSON_LENGTH} characters as JSON`,
  );

/** Saved views per project: the list shows up to this many (reference alerting-dashboards §6: max 100). */
export const MAX_SAVED_VIEWS = 100;

export const SavedViewInput = z.object({
  name: z.string().trim().min(1, "name can't be empty").max(200),
  /** Route name the view reopens, e.g. `SpanGroupList`, `SpanList`. */
  route: z.string().trim().min(1, "route can't be empty").max(200),
  params: freeJson.default({}),
  /** Address-bar query (minus time_gte). */
  query: freeJson.default({}),
});
export type SavedViewInput = z.input<typeof SavedViewInput>;

export const SavedView = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  route: z.string(),
  params: z.record(z.string(), z.unknown()),
  query: z.record(z.string(), z.unknown()),
  pinned: z.boolean(),
  createdAt: z.string(),
  user: z.object({ id: z.number().int(), email: z.string(), name: z.string() }),
});
export type SavedView = z.infer<typeof SavedView>;

/** Pinned first, then newest first; at most 100. */
export const SavedViewsResponse = z.object({ views: z.array(SavedView) });
export type SavedViewsResponse = z.infer<typeof SavedViewsResponse>;
export const SavedViewResponse = z.object({ view: SavedView });
export type SavedViewResponse = z.infer<typeof SavedViewResponse>;

// ---- pinned facets (user-scoped, /api/v1/pinned-facets) ---------------------------------------

export const PinnedFacetInput = z.object({ attr: z.string().trim().min(1, "attr can't be empty").max(500) });
export type PinnedFacetInput = z.infer<typeof PinnedFacetInput>;
export const PinnedFacetsResponse = z.object({ attrs: z.array(z.string()) });
export type PinnedFacetsResponse = z.infer<typeof PinnedFacetsResponse>;

/** Attributes pinned for everyone unless a user unpins them, in display order (reference query §6.1). */
export const CORE_ATTRS = [
  'deployment.environment',
  'service.name',
  'host.name',
  'rpc.method',
  'http.method',
  'http.status_code',
  'http.status_class',
  'db.operation',
  'log.severity',
  'log.source',
  'log.file.path',
  'log.file.name',
  'exception.type',
  'code.filepath',
  'code.function',
] as const;
