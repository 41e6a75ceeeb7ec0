import type { FastifyInstance } from 'fastify';
import {
  metricsRoutes,
  parseMetricsQuery,
  parseVariableParams,
  substituteVariables,
  tooManyFilters,
  MAX_FILTER_TERMS,
  type MetricsQueryParams,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { registerRoute } from '../http/routes';
import { requireProject, type ProjectsService } from '../projects';
import { buildHeatmap } from './heatmap';
import type { MetricsStore, TimeBounds } from './metrics.store';
import type { MetricsQueryService } from './metricsQuery.service';
import { partInfo } from './query/plan';
import { parseTime, timeGrid } from './query/timeRange';

/** The metrics routes (metricsRoutes; spec tracing-and-metrics §Metrics). Binds contracts to handlers. */
export function registerMetricsRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; store: MetricsStore; query: MetricsQueryService },
): void {
  const r = metricsRoutes;

  registerRoute(app, r.metricsList, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    return { metrics: await deps.store.list(project.id, { instrument: q.instrument, attrKeys: q.attr_key }) };
  });

  registerRoute(app, r.metricsStats, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    return deps.store.stats(project.id, bounds(q.time_gte, q.time_lt), {
      search: q.search_input,
      attrKeys: q.attr_key,
      instrument: q.instrument,
    });
  });

  registerRoute(app, r.metricsDescribe, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    if (q.metric.length === 0)
      throw new AppError('invalid_input', 'invalid_metrics', 'at least one metric is required');
    return { metrics: await deps.store.describe(project.id, q.metric) };
  });

  /** The query with the dashboard variables' values (`var`) in place of their `$name` (issue 41). */
  const queryText = (q: Pick<MetricsQueryParams, 'query' | 'var'>) =>
    substituteVariables(q.query, parseVariableParams(q.var));
  const evalInput = (req: { params: { projectId: string }; query: MetricsQueryParams }) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    const input = {
      metrics: q.metric,
      aliases: q.alias,
      query: queryText(q),
      grid: timeGrid(q.time_gte, q.time_lt),
      search: q.search,
    };
    return { project, q, input };
  };
  registerRoute(app, r.metricsTimeseries, async (req) => {
    const { project, input } = evalInput(req);
    return deps.query.timeseries(project.id, input);
  });
  registerRoute(app, r.metricsGauge, async (req) => {
    const { project, input } = evalInput(req);
    return deps.query.gauge(project.id, input);
  });
  registerRoute(app, r.metricsTable, async (req) => {
    const { project, q, input } = evalInput(req);
    return deps.query.table(project.id, input, { by: q.sort_by, desc: parseBool(q.sort_desc) });
  });

  registerRoute(app, r.metricsHeatmap, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    if (q.metric.length === 0 || !q.metric[0])
      throw new AppError('invalid_input', 'invalid_metrics', 'at least one metric is required');
    const grid = timeGrid(q.time_gte, q.time_lt);
    const parsed = parseMetricsQuery(queryText(q));
    const { where, errors } = whereParts(parsed, 'not supported by heatmap');
    // Counts, like any sum: the finished minutes only, unless the current one is all there is.
    const buckets = (lt: Date) => deps.store.histogramBuckets(project.id, q.metric[0], { ...grid, lt }, where);
    let rows = await buckets(grid.complete);
    if (rows.length === 0 && grid.complete < grid.lt) rows = await buckets(grid.lt);
    return { query: { parts: partInfo(parsed, errors) }, heatmap: buildHeatmap(grid, rows) };
  });

  registerRoute(app, r.metricsAttrKeys, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    const keys = await deps.store.attrKeys(project.id, bounds(q.time_gte, q.time_lt), q.metric, q.search_input);
    const pinned = new Set(project.pinned_attrs);
    return {
      items: keys.map((k) => ({ value: k.value, text: k.value, count: k.count, pinned: pinned.has(k.value) })),
      hasMore: false,
    };
  });

  registerRoute(app, r.metricsAttrValues, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = req.query;
    if (q.metric.length === 0)
      throw new AppError('invalid_input', 'invalid_metrics', '"metric" query param is required');
    // A dependent variable's filter (issue 41): the earlier variables' picks in place, where parts only.
    const parsed = parseMetricsQuery(queryText(q));
    const { where, errors } = whereParts(parsed, 'a values filter takes where parts only');
    const [bad] = [...errors];
    if (bad) throw new AppError('invalid_input', 'invalid_query', `${parsed.parts[bad[0]].text}: ${bad[1]}`);
    const values = await deps.store.attrValues(
      project.id,
      bounds(q.time_gte, q.time_lt),
      q.metric,
      q.attr_key,
      q.search_input,
      where,
    );
    return {
      items: values.map((v) => ({ value: v.value, text: v.value, count: v.count })),
      hasMore: q.search_input !== '' || values.length === 1000,
    };
  });
}

/**
 * The `where` parts of a query that takes nothing else (heatmap, attribute values), their filter
 * terms together capped as for any series; the other parts' errors by index (`refusal`: a part of
 * another kind).
 */
function whereParts(parsed: ReturnType<typeof parseMetricsQuery>, refusal: string) {
  const errors = new Map<number, string>();
  let terms = 0;
  const where = parsed.parts.flatMap((p, i) => {
    if (p.kind === 'error') errors.set(i, p.message);
    else if (p.kind !== 'where') errors.set(i, refusal);
    else if (terms + p.filters.length > MAX_FILTER_TERMS) errors.set(i, tooManyFilters(terms + p.filters.length));
    else {
      terms += p.filters.length;
      return [{ filters: p.filters, conjunctions: p.conjunctions }];
    }
    return [];
  });
  return { where, errors };
}

function parseBool(v: string | undefined): boolean {
  return v !== undefined && /^(1|t|true)$/i.test(v);
}

/** Listing endpoints default to the last 24 hours when no range is given. */
function bounds(gte: string | undefined, lt: string | undefined): TimeBounds {
  const end = lt ? parseTime(lt, 'time_lt') : new Date();
  const start = gte ? parseTime(gte, 'time_gte') : new Date(end.getTime() - 86_400_000);
  if (start >= end) throw new AppError('invalid_input', 'invalid_time', 'time_lt must be after time_gte');
  return { gte: start, lt: end };
}
