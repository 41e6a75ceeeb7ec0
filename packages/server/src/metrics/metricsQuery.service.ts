import {
  metricAliasProblem,
  type Metric,
  parseMetricsQuery,
  type GaugeResponse,
  type MetricColumn,
  type TableResponse,
  type Timeseries,
  type MetricTimeseriesResponse,
  toText,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { StoreQueryError, type TelemetryStore } from '../storage/telemetry';
import type { MetricsStore } from './metrics.store';
import { compileSeriesQuery, sumsRows, type SeriesQuery } from './query/compileSeries';
import { compileGroupNames, GROUP_ID, type GroupNames } from './query/groupNames';
import { evaluateColumns, seriesId, seriesKey, seriesName, type ColumnResult, type Series } from './query/evaluate';
import { partInfo, planQuery, type MetricRef, type Mode } from './query/plan';
import { bucketTimes, type TimeGrid } from './query/timeRange';

/**
 * Runs metrics queries end to end: validate metric/alias params, parse, plan against the
 * catalogue, run one SQL query per timeseries expression, evaluate, and shape the answers of the
 * timeseries, table and gauge endpoints (reference query §3.8–3.10).
 */
export interface MetricsQueryInput {
  metrics: string[];
  aliases: string[];
  query: string;
  grid: TimeGrid;
  search?: string;
}

const MAX_METRICS = 6;
const TABLE_LIMIT = 1000;

export function validateMetricParams(metrics: string[], aliases: string[]): void {
  const bad = (m: string) => new AppError('invalid_input', 'invalid_metrics', m);
  if (metrics.length === 0) throw bad('at least one metric is required');
  if (metrics.length > MAX_METRICS) throw bad(`at most ${MAX_METRICS} metrics are allowed`);
  if (metrics.length !== aliases.length) throw bad(`got ${metrics.length} metrics and ${aliases.length} aliases`);
  if (metrics.some((m) => !m)) throw bad("metric name can't be empty");
  if (aliases.some((a) => !a)) throw bad("metric alias can't be empty");
  // `$` alone leaves an empty alias: invalid, like any other bad spelling.
  const problem = metricAliasProblem(aliases.map((a) => a.replace(/^\$/, '')));
  if (problem?.kind === 'empty' || problem?.kind === 'invalid') throw bad(`invalid alias: "${problem.alias}"`);
  if (problem?.kind === 'duplicate') throw bad('metric aliases must be unique');
}

/** A query's metric as the catalogue describes it; `deleted` when it does not. */
function metricRef(name: string, alias: string, m: Metric | undefined): MetricRef {
  return {
    name,
    alias,
    instrument: m?.instrument ?? 'deleted',
    unit: m?.unit ?? '',
    ...(m?.fromBuckets ? { fromBuckets: true as const } : {}),
  };
}

export function createMetricsQueryService(deps: { store: MetricsStore; telemetry: TelemetryStore }) {
  async function run(projectId: number, input: MetricsQueryInput, mode: Mode) {
    validateMetricParams(input.metrics, input.aliases);
    const described = new Map((await deps.store.describe(projectId, input.metrics)).map((m) => [m.name, m]));
    const refs = input.metrics.map((name, i) =>
      metricRef(name, input.aliases[i].replace(/^\$/, ''), described.get(name)),
    );
    const parsed = parseMetricsQuery(input.query);
    const plan = planQuery(parsed, refs, mode, input.search ?? '');
    const reads = await Promise.all(plan.queries.map((q) => runSeries(projectId, q, input.grid)));
    const results = reads.map((r) => r.series);
    const columns = evaluateColumns(plan.columns, {
      mode,
      // Rates divide by the minutes read: the current one too once a sum had only that.
      grid: reads.some((r) => r.readCurrentMinute) ? { ...input.grid, complete: input.grid.lt } : input.grid,
      results,
      groupings: plan.queries.map((q) => (q.grouping === 'all' ? 'all' : q.grouping.join(','))),
    });
    for (const c of columns) if (c.error) plan.partErrors.set(c.column.part, c.error);
    const names = await groupNames(projectId, plan.queries, results, input.grid);
    return { info: { parts: partInfo(parsed, plan.partErrors) }, columns, metrics: refs, names };
  }

  /**
   * The parts of a query that cannot run, without running it (a dashboard saved from YAML): the
   * parser's errors and the planner's against the catalogue (an aggregation the instrument lacks,
   * an unknown alias). A query naming a metric the project has not sent yet is planned no further
   * than its parse: it may well be right once the metric arrives.
   */
  async function check(
    projectId: number,
    input: { metrics: { name: string; alias: string }[]; query: string },
    mode: Mode,
  ): Promise<{ part: number; query: string; error: string }[]> {
    const parsed = parseMetricsQuery(input.query);
    const errors = new Map<number, string>();
    parsed.parts.forEach((p, i) => p.kind === 'error' && errors.set(i, p.message));
    const described = new Map(
      (
        await deps.store.describe(
          projectId,
          input.metrics.map((m) => m.name),
        )
      ).map((m) => [m.name, m]),
    );
    if (errors.size === 0 && input.metrics.every((m) => described.has(m.name))) {
      const refs = input.metrics.map((m) => metricRef(m.name, m.alias, described.get(m.name)));
      for (const [part, error] of planQuery(parsed, refs, mode).partErrors) errors.set(part, error);
    }
    return partInfo(parsed, errors)
      .map((p, part) => ({ part, ...p }))
      .filter((p) => p.error);
  }

  /** Span group names of the `.group_id` values the series of a query carry (none: no read). */
  async function groupNames(
    projectId: number,
    queries: readonly SeriesQuery[],
    results: readonly Series[][],
    grid: TimeGrid,
  ): Promise<GroupNames> {
    const metrics = new Set<string>();
    const ids = new Set<string>();
    queries.forEach((q, i) => {
      for (const s of results[i]) {
        const id = s.attrs[GROUP_ID];
        if (!id) continue;
        metrics.add(q.metric);
        ids.add(id);
      }
    });
    if (ids.size === 0) return new Map();
    const rows = await deps.telemetry.readRollups((watermark) =>
      deps.telemetry.query<{ gid: string; name: string }>(
        compileGroupNames(projectId, [...metrics], [...ids], grid, watermark),
      ),
    );
    return new Map(rows.filter((r) => r.name).map((r) => [r.gid, r.name]));
  }

  /** The query's series, and whether it read the current minute (all a sum had: the whole of `lt`). */
  async function runSeries(
    projectId: number,
    q: SeriesQuery,
    grid: TimeGrid,
  ): Promise<{ series: Series[]; readCurrentMinute: boolean }> {
    let readCurrentMinute = false;
    const read = (g: TimeGrid) =>
      deps.telemetry.readRollups((watermark) =>
        deps.telemetry.query<Record<string, unknown>>(compileSeriesQuery(projectId, q, g, watermark)),
      );
    let rows: Record<string, unknown>[];
    try {
      rows = await read(grid);
      // A metric whose only data is in the current minute (it just started reporting) shows it.
      // (A query without groups answers one row of empty arrays when nothing matched.)
      const empty = rows.every((r) => (r.times as unknown[]).length === 0);
      if (empty && sumsRows(q) && grid.complete < grid.lt) {
        readCurrentMinute = true;
        rows = await read({ ...grid, complete: grid.lt });
      }
    } catch (err) {
      if (err instanceof StoreQueryError) {
        throw new AppError('invalid_input', 'invalid_query', `the query could not run: ${err.message}`);
      }
      throw err;
    }
    const bucketSec = grid.bucketMin * 60;
    const start = grid.gte.getTime() / 1000;
    const series = rows.map((row) => {
      let keys: string[];
      let attrs: Record<string, string>;
      if (q.grouping === 'all') {
        keys = row.attr_keys as string[];
        const vals = row.attr_values as string[];
        attrs = Object.fromEntries(keys.map((k, i) => [k, vals[i]]));
      } else {
        keys = q.grouping;
        attrs = Object.fromEntries(keys.map((k, i) => [k, toText(row[`g${i}`])]));
      }
      const values = new Array<number>(grid.points).fill(NaN);
      const times = row.times as (string | number)[];
      const vs = row.values as (number | null)[];
      times.forEach((t, i) => {
        const idx = Math.floor((Number(t) - start) / bucketSec);
        if (idx >= 0 && idx < grid.points) values[idx] = vs[i] === null ? NaN : Number(vs[i]);
      });
      return { keys, attrs, values };
    });
    return { series, readCurrentMinute };
  }

  return {
    /** Parts and evaluated columns, for callers that shape their own answer (metric monitors). */
    evaluate: run,
    check,
    async timeseries(projectId: number, input: MetricsQueryInput): Promise<MetricTimeseriesResponse> {
      const { info, columns, names } = await run(projectId, input, 'timeseries');
      const timeseries: Timeseries[] = [];
      const cols: MetricColumn[] = [];
      for (const c of visible(columns)) {
        cols.push({ name: c.column.name, unit: c.set?.unit ?? '', isGroup: false });
        for (const s of c.set?.series ?? []) {
          const name = seriesName(c.column, s, names);
          timeseries.push({
            id: seriesId(name),
            name,
            metric: c.column.name,
            unit: c.set!.unit,
            attrs: s.attrs,
            value: s.values.map(nullable),
          });
        }
      }
      return { query: info, timeseries, time: bucketTimes(input.grid), columns: cols };
    },

    async table(
      projectId: number,
      input: MetricsQueryInput,
      sort: { by: string; desc: boolean },
    ): Promise<TableResponse> {
      const { info, columns, names } = await run(projectId, input, 'table');
      const { cols, rows } = tableRows(visible(columns), names);
      const firstCol = cols.find((c) => !c.isGroup)?.name ?? '';
      const by = rows.length && sort.by in rows[0] ? sort.by : firstCol;
      const desc = by === sort.by ? sort.desc : true;
      rows.sort((a, b) => compareCells(a[by], b[by]) * (desc ? -1 : 1));
      return {
        query: info,
        columns: cols,
        items: rows.slice(0, TABLE_LIMIT),
        hasMore: rows.length > TABLE_LIMIT,
        order: { column: by, desc },
      };
    },

    async gauge(projectId: number, input: MetricsQueryInput): Promise<GaugeResponse> {
      const { info, columns } = await run(projectId, input, 'gauge');
      const { cols, rows } = tableRows(visible(columns));
      const first = rows[0];
      const values = first ? Object.fromEntries(Object.entries(first).filter(([k]) => k !== '_query')) : {};
      return { query: info, columns: cols, values };
    },
  };
}

export type MetricsQueryService = ReturnType<typeof createMetricsQueryService>;

/** The columns a query shows: `_`-prefixed ones are helpers (reference query §4.7). */
export const visible = (cols: ColumnResult[]) => cols.filter((c) => !c.column.name.startsWith('_'));
const nullable = (v: number) => (Number.isFinite(v) ? v : null);

/** One row per attribute set across all columns (reference §3.9). Missing cells are null. */
function tableRows(
  columns: ColumnResult[],
  names: GroupNames = new Map(),
): { cols: MetricColumn[]; rows: Record<string, unknown>[] } {
  const cols: MetricColumn[] = columns.map((c) => ({
    name: c.column.name,
    unit: c.set?.unit ?? '',
    isGroup: false,
    ...(c.set?.over ? { over: c.set.over } : {}),
  }));
  const groupKeys: string[] = [];
  const rows = new Map<string, Record<string, unknown>>();
  for (const c of columns) {
    const entries: { key: string; s: Series | null; value: number }[] = c.set
      ? c.set.series.map((s) => ({ key: seriesKey(s), s, value: s.values[0] }))
      : c.scalar !== null
        ? [{ key: '', s: null, value: c.scalar }]
        : [];
    for (const { key, s, value } of entries) {
      let row = rows.get(key);
      if (!row) {
        const attrs = s?.attrs ?? {};
        const keys = s?.keys ?? [];
        for (const k of keys) if (!groupKeys.includes(k)) groupKeys.push(k);
        const name = names.get(attrs[GROUP_ID] ?? '');
        row = {
          _name: keys.map((k) => (k === GROUP_ID && name ? name : `${k}=${attrs[k]}`)).join(', '),
          // The names shown for attribute values (a span group's name for its `.group_id`).
          ...(name ? { _names: { [GROUP_ID]: name } } : {}),
          _query: keys.map((k) => `where ${k} = ${JSON.stringify(attrs[k])}`).join(' | '),
          _attrs: attrs,
          ...attrs,
        };
        rows.set(key, row);
      }
      row[c.column.name] = nullable(value);
    }
  }
  for (const row of rows.values()) {
    for (const c of cols) if (!(c.name in row)) row[c.name] = null;
    for (const k of groupKeys) if (!(k in row)) row[k] = '';
  }
  return { cols: [...cols, ...groupKeys.map((k) => ({ name: k, unit: '', isGroup: true }))], rows: [...rows.values()] };
}

function compareCells(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  return toText(a).localeCompare(toText(b));
}
