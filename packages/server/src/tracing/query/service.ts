import type {
  AttrKeyKind,
  AttrKeysResponse,
  AttrValuesResponse,
  ColumnInfo,
  GroupRow,
  GroupStatsResponse,
  GroupsResponse,
  Name,
  PercentilesResponse,
  SystemsResponse,
  TimeseriesGroup,
  TimeseriesResponse,
} from '@lantern/shared';
import { attrKeyKindOfFunc, BUILTIN_FIELDS, toText, UINT64_FIELDS } from '@lantern/shared';
import { builtinKeys } from './builtinKeys';
import type { SqlFragment } from '../../storage/sql';
import type { TelemetryStore } from '../../storage/telemetry';
import { sortCoreFirst } from '../savedViews.store';
import {
  ATTR_VALUES_LIMIT,
  attrKeysSql,
  attrValuesSql,
  numericAttrKeysSql,
  groupsSql,
  groupStatsSql,
  groupsStatsSql,
  percentilesSql,
  spansSql,
  systemsSql,
  timeseriesSql,
  TIMESERIES_SERIES,
  type OutputColumn,
} from './builders';
import { bucketGrid, nullableNum, zeroWhenEmpty, type BucketValue, type Row } from './buckets';
import { allEventSystems, type RangeScope } from './scope';

/** Runs the endpoint queries and shapes their answers (reference query §2; buckets.ts for gaps). */

const num = (v: unknown): number => nullableNum(v) ?? 0;
/** NaN/Inf are null on the wire (reference §0.3); 64-bit integers stay strings. */
const jsonValue = (v: unknown): unknown => (typeof v === 'number' && !Number.isFinite(v) ? null : v);

/** What an attr-keys request asks for (reference query §6.1; shared AttrKeysParams). */
export interface AttrKeysOptions {
  kind?: AttrKeyKind;
  withColumns?: boolean;
  func?: string;
}

/**
 * `rankFirst: false`: a time series reads every group, not only those that can rank among the kept
 * series (builders.ts topGroups; the answer is the same: tests compare the two ways).
 */
export function createQueryService(store: TelemetryStore, opts: { rankFirst?: boolean } = {}) {
  const minutes = (s: RangeScope) => (s.lt.getTime() - s.gte.getTime()) / 60_000;
  /**
   * Builds the SQL over `scope`; when it reads the per-system rows with their hour check inline,
   * asks those hours first and builds it again with them (rollup.ts systemHoursSql: cheaper).
   */
  const withSystemHours = async <T extends { systemHours: SqlFragment | null }>(
    scope: RangeScope,
    build: (s: RangeScope) => T,
  ): Promise<T> => {
    const built = build(scope);
    if (!built.systemHours) return built;
    const rows = await store.query<{ h: unknown }>(built.systemHours);
    return build({ ...scope, systemHours: rows.map((r) => num(r.h)) });
  };

  return {
    async systems(scope: RangeScope, query: string): Promise<SystemsResponse> {
      const { q, sql } = systemsSql(scope, query);
      const rows = await store.query<Row>(sql);
      const m = minutes(scope);
      const systems = rows.map((r) => {
        const count = num(r.count);
        const errorCount = num(r.errorCount);
        return {
          projectId: scope.projectId,
          system: String(r.system),
          count,
          errorCount,
          rate: count / m,
          errorRate: count ? errorCount / count : 0,
          groupCount: num(r.groupCount),
        };
      });
      return { systems, hasNoData: systems.length === 0 && query.trim() === '', query: { parts: q.parts } };
    },

    /**
     * A page of groups; with `stats` the series of its first `stats.rows` groups too (what group-stats
     * answers for each, from one more query), so a page's sparklines come with the list.
     */
    async groups(
      scope: RangeScope,
      query: string,
      opts: {
        sortBy?: string;
        sortDesc?: boolean;
        limit: number;
        stats?: { columns: readonly string[]; rows: number };
      },
    ): Promise<{ errors: string[]; answer: GroupsResponse }> {
      const built = groupsSql(scope, query, opts);
      const columns = columnInfos(built.cols);
      const empty = opts.stats ? { stats: {} } : {};
      if (!built.sql)
        return {
          errors: [],
          answer: {
            groups: [],
            columns,
            query: { parts: built.q.parts },
            hasMore: false,
            order: built.order,
            ...empty,
          },
        };
      const rows = await store.query<Row>(built.sql);
      const hasMore = rows.length > opts.limit;
      const groups = rows.slice(0, opts.limit).map((r) => groupRow(built.cols, r));
      const answer: GroupsResponse = { groups, columns, query: { parts: built.q.parts }, hasMore, order: built.order };
      if (!opts.stats) return { errors: [], answer };
      const first = groups.slice(0, opts.stats.rows);
      const statsColumns = opts.stats.columns;
      const stats = await withSystemHours(scope, (s) =>
        groupsStatsSql(
          s,
          query,
          statsColumns,
          first.map((g) => g._query),
        ),
      );
      if (stats.errors.length) return { errors: stats.errors, answer };
      answer.stats = {};
      for (const g of first) answer.stats[g._id] = {};
      if (!stats.sql) return { errors: [], answer };
      const byGroup = new Map<number, Row[]>();
      for (const r of await store.query<Row>(stats.sql)) {
        const i = num(r.g);
        byGroup.set(i, [...(byGroup.get(i) ?? []), r]);
      }
      const grid = bucketGrid(scope.gte, scope.lt, stats.bucketMs);
      for (const [i, groupRows] of byGroup) {
        const g = first[i];
        if (!g) continue;
        answer.stats[g._id] = statsAnswer(stats.cols, groupRows, grid);
      }
      return { errors: [], answer };
    },

    async timeseries(scope: RangeScope, query: string): Promise<TimeseriesResponse> {
      const built = timeseriesSql(scope, query);
      const columns = columnInfos(built.cols);
      if (!built.sql) return { groups: [], time: null, columns, query: { parts: built.q.parts } };
      const grid = bucketGrid(built.scope.gte, built.scope.lt, built.bucketMs);
      const numCols = built.cols.filter((c) => !c.isGroup && !c.hidden);
      const groupCols = built.cols.filter((c) => c.isGroup);
      // The groups that can rank among the kept series only, when the builder can tell them.
      const rows = await store.query<Row>((opts.rankFirst !== false && built.ranked) || built.sql);
      const ranked = byTotal(seriesOf(rowsBySeries(rows, groupCols), numCols, grid)).slice(0, TIMESERIES_SERIES);
      const groups = ranked.map((s) => {
        const row = groupRow(
          built.cols.filter((c) => c.isGroup || c.hidden),
          s.first,
        );
        numCols.forEach((c, i) => (row[c.name] = s.arrays[i]));
        // Group-by values are the engine's scalars; the numeric columns are the arrays just set.
        return row as TimeseriesGroup;
      });
      return { groups, time: groups.length ? grid.time() : null, columns, query: { parts: built.q.parts } };
    },

    async percentiles(scope: RangeScope, query: string): Promise<PercentilesResponse> {
      const withDurations = !allEventSystems(scope.systems);
      const built = await withSystemHours(scope, (s) => percentilesSql(s, query, withDurations));
      const rows = await store.query<Row>(built.sql);
      if (rows.length === 0) return {};
      const grid = bucketGrid(scope.gte, scope.lt, built.bucketMs);
      const m = built.bucketMs / 60_000;
      const out: PercentilesResponse = {
        count: grid.fill(rows, (r) => num(r.count), 0),
        rate: grid.fill(rows, (r) => num(r.count) / m, 0),
        time: grid.time(),
      };
      if (withDurations) {
        // Durations of spans only: a bucket with only logs or events has none (null).
        const q = (i: number) => (r: Row) => {
          const v = nullableNum((r.q as unknown[] | undefined)?.[i]);
          return v === null ? null : Math.round(v);
        };
        Object.assign(out, {
          errorCount: grid.fill(rows, (r) => num(r.errorCount), 0),
          errorRate: grid.fill(rows, (r) => num(r.errorCount) / m, 0),
          p50: grid.fill(rows, q(0), null),
          p90: grid.fill(rows, q(1), null),
          p99: grid.fill(rows, q(2), null),
          max: grid.fill(rows, (r) => nullableNum(r.max), null),
        });
      }
      return out;
    },

    async groupStats(
      scope: RangeScope,
      query: string,
      columns: readonly string[],
    ): Promise<{ errors: string[]; answer: GroupStatsResponse }> {
      const built = groupStatsSql(scope, query, columns);
      if (built.errors.length) return { errors: built.errors, answer: {} };
      const rows = await store.query<Row>(built.sql);
      if (rows.length === 0) return { errors: [], answer: {} };
      return { errors: [], answer: statsAnswer(built.cols, rows, bucketGrid(scope.gte, scope.lt, built.bucketMs)) };
    },

    /** A page of (trace id, span id, group name) rows, the total, and the order used. */
    async spanPage(
      scope: RangeScope,
      query: string,
      opts: { sortBy?: string; sortDesc?: boolean; page: number; limit: number },
    ) {
      const built = spansSql(scope, query, { ...opts, eventsOnly: allEventSystems(scope.systems) });
      const readPage = async () => {
        const floor = built.durationFloor && (await store.query<{ floor: string }>(built.durationFloor))[0]?.floor;
        return store.query<{ trace_uuid: string; id: string; group_name: string }>(
          floor !== undefined && floor !== null ? built.pageFrom(BigInt(floor)) : built.page,
        );
      };
      const [page, count] = await Promise.all([readPage(), store.query<{ count: string }>(built.count)]);
      return { ids: page, count: num(count[0]?.count), order: built.order, query: { parts: built.q.parts } };
    },

    async attrKeys(
      scope: RangeScope,
      query: string,
      pinned: readonly string[],
      opts: AttrKeysOptions = {},
    ): Promise<AttrKeysResponse & { query: unknown }> {
      const kind = (opts.func ? attrKeyKindOfFunc(opts.func) : null) ?? opts.kind ?? 'text';
      let attrs: string[];
      let built: { q: { parts: unknown } };
      if (kind === 'number') {
        const b = numericAttrKeysSql(scope, query);
        attrs = (await store.query<{ key: string }>(b.sql)).map((r) => r.key);
        built = b;
      } else {
        const b = attrKeysSql(scope, query);
        attrs = (await store.query<{ keys: string[] }>(b.sql))[0]?.keys ?? [];
        built = b;
      }
      const keys = sortCoreFirst([
        ...new Set([...attrs, ...builtinKeys(kind, opts.withColumns ?? false, Boolean(opts.func))]),
      ]);
      const pin = new Set(pinned);
      return { items: keys.map((value) => ({ value, pinned: pin.has(value) })), query: { parts: built.q.parts } };
    },

    async attrValues(
      scope: RangeScope,
      query: string,
      attrKey: string,
      searchInput?: string,
    ): Promise<AttrValuesResponse & { query: unknown }> {
      const built = attrValuesSql(scope, query, attrKey, searchInput);
      const rows = await store.query<{ value: unknown; count: unknown }>(built.sql);
      return {
        items: rows.slice(0, ATTR_VALUES_LIMIT).map((r) => ({ value: String(r.value), count: num(r.count), hint: '' })),
        hasMore: rows.length > ATTR_VALUES_LIMIT,
        query: { parts: built.q.parts },
      };
    },
  };
}

export type QueryService = ReturnType<typeof createQueryService>;

type Grid = ReturnType<typeof bucketGrid>;

/** A time series' rows by series: the JSON text of the group-by values. */
function rowsBySeries(rows: readonly Row[], groupCols: OutputColumn[]): Map<string, Row[]> {
  const bySeries = new Map<string, Row[]>();
  for (const r of rows) {
    const key = JSON.stringify(groupCols.map((c) => r[c.key]));
    const rs = bySeries.get(key);
    if (rs) rs.push(r);
    else bySeries.set(key, [r]);
  }
  return bySeries;
}

interface Series {
  key: string;
  first: Row;
  arrays: BucketValue[][];
}

/** A time series' series from its rows by series (rowsBySeries). */
const seriesOf = (bySeries: Iterable<[string, Row[]]>, numCols: OutputColumn[], grid: Grid): Series[] =>
  [...bySeries].map(([key, rs]) => ({
    key,
    first: rs[0],
    arrays: numCols.map((c) => grid.fill(rs, (r) => nullableNum(r[c.key]), zeroWhenEmpty(c.name_) ? 0 : null)),
  }));

/**
 * Series by the total of their first column, largest first; equal totals by group key: the same
 * series on every read, whatever order rows came in.
 */
function byTotal<S extends Series>(series: S[]): S[] {
  const total = new Map(series.map((s) => [s, sum(s.arrays[0])]));
  return series.sort((a, b) => total.get(b)! - total.get(a)! || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const sum = (a: readonly (number | null)[] | undefined) => (a ?? []).reduce<number>((x, y) => x + (y ?? 0), 0);

function columnInfos(cols: OutputColumn[]): ColumnInfo[] {
  return cols.filter((c) => !c.hidden).map((c) => ({ name: c.name, unit: c.unit, isGroup: c.isGroup, isNum: c.isNum }));
}

/** Aggregates come back as numbers, or as strings for 64-bit integers: numbers when exact. */
function numericValue(v: unknown): unknown {
  if (typeof v === 'string' && /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return jsonValue(v);
}

/** A group-stats answer from its rows (one a bucket): every column on the bucket grid, and `_time`. */
function statsAnswer(
  cols: readonly { name: string; name_: Name; key: string }[],
  rows: Row[],
  grid: ReturnType<typeof bucketGrid>,
): GroupStatsResponse {
  const answer: GroupStatsResponse = {};
  for (const c of cols)
    answer[c.name] = grid.fill(rows, (r) => nullableNum(r[c.key]), zeroWhenEmpty(c.name_) ? 0 : null);
  answer._time = grid.time();
  return answer;
}

/** A row of a grouped answer: every column by name plus `_id`, `_name`, `_query` (§2.2). */
function groupRow(cols: OutputColumn[], r: Row): GroupRow {
  const row: Record<string, unknown> = {};
  for (const c of cols) row[c.name] = c.isNum ? numericValue(r[c.key]) : jsonValue(r[c.key]);
  const groups = cols.filter((c) => c.isGroup);
  const displayName = typeof row['display.name'] === 'string' ? row['display.name'] : '';
  const literal = (c: OutputColumn, v: unknown) =>
    c.name_.func === null &&
    BUILTIN_FIELDS[c.name_.attr]?.numeric &&
    (UINT64_FIELDS.has(c.name_.attr) || typeof v === 'number')
      ? String(v)
      : JSON.stringify(toText(v));
  const key = (c: OutputColumn) => (/^[A-Za-z_$.][A-Za-z0-9_.]*$/.test(c.name) ? c.name : JSON.stringify(c.name));
  const pairs = groups.map((c) => `${c.name}=${literal(c, row[c.name])}`);
  return {
    ...row,
    _id: fnv1a64(JSON.stringify(groups.map((c) => row[c.name]))),
    _name: groups.length === 1 && groups[0].name === '.group_id' && displayName ? displayName : pairs.join(' '),
    _query: groups.length ? `where ${groups.map((c) => `${key(c)} = ${literal(c, row[c.name])}`).join(' and ')}` : '',
  };
}

/** 64-bit FNV-1a as a decimal string: a stable row id. */
export function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString();
}
