import type { FastifyInstance } from 'fastify';
import {
  foldArrayParams,
  MetricAttrKeysParams,
  MetricAttrValuesParams,
  MetricsQueryParams,
  MetricsStatsParams,
  parseMetricsQuery,
  type HeatmapResponse,
} from '@lantern/shared';
import { AppError } from '../http/appError';
import { parseInput } from '../http/parseInput';
import { requireProject, type ProjectsService } from '../projects';
import { buildHeatmap } from './heatmap';
import type { MetricsStore, TimeBounds } from './metrics.store';
import type { MetricsQueryService } from './metricsQuery.service';
import { partInfo } from './query/plan';
import { parseTime, timeGrid } from './query/timeRange';

/** `/api/v1/metrics/{projectId}/...` (spec tracing-and-metrics §Metrics). Binds contracts to handlers. */
export function registerMetricsRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; store: MetricsStore; query: MetricsQueryService },
): void {
  type Req = { Params: { projectId: string }; Querystring: Record<string, unknown> };

  app.get<Req>('/api/v1/metrics/:projectId', async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricsStatsParams, foldArrayParams(req.query));
    return { metrics: await deps.store.list(project.id, { instrument: q.instrument, attrKeys: q.attr_key }) };
  });

  app.get<Req>('/api/v1/metrics/:projectId/stats', async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricsStatsParams, foldArrayParams(req.query));
    return deps.store.stats(project.id, bounds(q.time_gte, q.time_lt), {
      search: q.search_input,
      attrKeys: q.attr_key,
      instrument: q.instrument,
    });
  });

  app.get<Req>('/api/v1/metrics/:projectId/describe', async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricAttrKeysParams, foldArrayParams(req.query));
    if (q.metric.length === 0)
      throw new AppError('invalid_input', 'invalid_metrics', 'at least one metric is required');
    return { metrics: await deps.store.describe(project.id, q.metric) };
  });

  for (const kind of ['timeseries', 'table', 'gauge'] as const) {
    app.get<Req>(`/api/v1/metrics/:projectId/${kind}`, async (req) => {
      const project = requireProject(deps.projects, req.params.projectId);
      const q = parseInput(MetricsQueryParams, foldArrayParams(req.query));
      const input = {
        metrics: q.metric,
        aliases: q.alias,
        query: q.query,
        grid: timeGrid(q.time_gte, q.time_lt),
        search: q.search,
      };
      if (kind === 'timeseries') return deps.query.timeseries(project.id, input);
      if (kind === 'gauge') return deps.query.gauge(project.id, input);
      return deps.query.table(project.id, input, { by: q.sort_by, desc: parseBool(q.sort_desc) });
    });
  }

  app.get<Req>('/api/v1/metrics/:projectId/heatmap', async (req): Promise<HeatmapResponse> => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricsQueryParams, foldArrayParams(req.query));
    if (q.metric.length === 0 || !q.metric[0])
      throw new AppError('invalid_input', 'invalid_metrics', 'at least one metric is required');
    const grid = timeGrid(q.time_gte, q.time_lt);
    const parsed = parseMetricsQuery(q.query);
    const errors = new Map<number, string>();
    const where = parsed.parts.flatMap((p, i) => {
      if (p.kind === 'error') errors.set(i, p.message);
      else if (p.kind !== 'where') errors.set(i, 'not supported by heatmap');
      else return [{ filters: p.filters, conjunctions: p.conjunctions }];
      return [];
    });
    const rows = await deps.store.histogramBuckets(project.id, q.metric[0], grid, where);
    return { query: { parts: partInfo(parsed, errors) }, heatmap: buildHeatmap(grid, rows) };
  });

  app.get<Req>('/api/v1/metrics/:projectId/attr-keys', async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricAttrKeysParams, foldArrayParams(req.query));
    const keys = await deps.store.attrKeys(project.id, bounds(q.time_gte, q.time_lt), q.metric, q.search_input);
    const pinned = new Set(project.pinned_attrs);
    return {
      items: keys.map((k) => ({ value: k.value, text: k.value, count: k.count, pinned: pinned.has(k.value) })),
      hasMore: false,
    };
  });

  app.get<Req>('/api/v1/metrics/:projectId/attr-values', async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const q = parseInput(MetricAttrValuesParams, foldArrayParams(req.query));
    if (q.metric.length === 0)
      throw new AppError('invalid_input', 'invalid_metrics', '"metric" query param is required');
    const values = await deps.store.attrValues(
      project.id,
      bounds(q.time_gte, q.time_lt),
      q.metric,
      q.attr_key,
      q.search_input,
    );
    return {
      items: values.map((v) => ({ value: v.value, text: v.value, count: v.count })),
      hasMore: q.search_input !== '' || values.length === 1000,
    };
  });
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
