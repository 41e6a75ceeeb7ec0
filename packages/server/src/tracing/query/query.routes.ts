import {
  BUILTIN_FIELDS,
  canonicalAttr,
  MAX_GROUP_STATS_ROWS,
  MAX_SAVED_VIEWS,
  SystemsParams,
  tracingRoutes,
  type AnyRouteContract,
} from '@lantern/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ProjectConfig } from '../../config';
import { AppError, invalidInput } from '../../http/appError';
import { registerRoute, type RouteAnswer, type RouteInput } from '../../http/routes';
import { requireProject, type ProjectsService } from '../../projects';
import { StoreQueryError } from '../../storage/telemetry';
import type { TracingMetaStore } from '../savedViews.store';
import type { TracingStore } from '../tracing.store';
import type { RangeScope } from './scope';
import type { QueryService } from './service';

export interface QueryRouteDeps {
  projects: ProjectsService;
  query: QueryService;
  spans: TracingStore;
  meta: TracingMetaStore;
}

const MAX_RANGE_MS = 400 * 24 * 3600_000;

/** The tracing query endpoints (reference query §2, §6). */
export function registerTracingQueryRoutes(app: FastifyInstance, deps: QueryRouteDeps): void {
  const r = tracingRoutes;
  /**
   * The project, the parsed query string and its range scope. A query the backend refused is the
   * caller's query: 400 invalid_query with the generated text (`query`).
   */
  const queryRoute = <C extends RangeContract>(
    contract: C,
    handler: (
      q: { project: ProjectConfig; params: NonNullable<RouteInput<C>['query']>; scope: RangeScope; query: string },
      req: FastifyRequest,
    ) => Promise<RouteAnswer<C>>,
  ) =>
    registerRoute(app, contract, async (input, req) => {
      const project = requireProject(deps.projects, input.params.projectId);
      const params = input.query;
      try {
        const query = typeof params.query === 'string' ? params.query : '';
        return await handler({ project, params, scope: scopeOf(project.id, params), query }, req);
      } catch (err) {
        throw storeRefusal(err);
      }
    });

  queryRoute(r.tracingSystems, async ({ scope, query }) => deps.query.systems(scope, query));

  queryRoute(r.tracingGroups, async ({ scope, query, params }) => {
    const statsColumns = params.stats_column ?? [];
    if (statsColumns.length > 20) throw invalidInput('invalid_input', '"stats_column" takes at most 20 columns');
    const { errors, answer } = await deps.query.groups(scope, query, {
      sortBy: params.sort_by,
      sortDesc: params.sort_desc,
      limit: clampLimit(params.limit, 1000, 1000),
      stats: statsColumns.length
        ? { columns: statsColumns, rows: clampLimit(params.stats_rows, MAX_GROUP_STATS_ROWS, MAX_GROUP_STATS_ROWS) }
        : undefined,
    });
    if (errors.length) throw invalidInput('invalid_column', errors.join('; '));
    return answer;
  });

  queryRoute(r.tracingGroupStats, async ({ scope, query, params }) => {
    if (params.column.length === 0 || params.column.length > 20)
      throw invalidInput('invalid_input', '"column" query param is required (at most 20)');
    const { errors, answer } = await deps.query.groupStats(scope, query, params.column);
    if (errors.length) throw invalidInput('invalid_column', errors.join('; '));
    return answer;
  });

  queryRoute(r.tracingPercentiles, async ({ scope, query }) => deps.query.percentiles(scope, query));

  queryRoute(r.tracingSpans, async ({ project, scope, query, params }) => {
    const limit = clampLimit(params.limit, 1000, 10);
    const page = Math.max(1, params.page ?? 1);
    if ((page - 1) * limit > 100_000) throw invalidInput('invalid_input', 'page is too deep: narrow the query instead');
    const res = await deps.query.spanPage(scope, query, {
      sortBy: params.sort_by,
      sortDesc: params.sort_desc,
      page,
      limit,
    });
    const spans = await deps.spans.spansByIds(project.id, res.ids);
    return { spans, count: res.count, hasMore: page * limit < res.count, order: res.order, query: res.query };
  });

  queryRoute(r.tracingTimeseries, async ({ scope, query }) => deps.query.timeseries(scope, query));

  queryRoute(r.tracingAttrKeys, async ({ scope, query, params }, req) => {
    const opts = { kind: params.kind, withColumns: params.with_columns, func: params.func };
    return deps.query.attrKeys(scope, query, await deps.meta.pinnedFacets(req.user!.id), opts);
  });

  queryRoute(r.tracingAttrValues, async ({ scope, query, params }) => {
    const key = canonicalAttr(params.attr_key);
    const builtin = BUILTIN_FIELDS[key];
    if (key.startsWith('.') && (!builtin || builtin.aggregate))
      throw invalidInput('invalid_attr_key', `"${params.attr_key}" has no per-span values`);
    return deps.query.attrValues(scope, query, key, params.search_input);
  });

  // ---- saved views ----
  registerRoute(app, r.savedViews, async ({ params }) => {
    const project = requireProject(deps.projects, params.projectId);
    return { views: await deps.meta.listViews(project.id) };
  });
  registerRoute(app, r.createSavedView, async (input, req) => {
    const project = requireProject(deps.projects, input.params.projectId);
    const view = await deps.meta.createView(project.id, req.user!.id, input.body);
    if (view === 'full')
      throw invalidInput('too_many_saved_views', `a project can't have more than ${MAX_SAVED_VIEWS} saved views`);
    return { view };
  });
  registerRoute(app, r.deleteSavedView, async ({ params }) => {
    const project = requireProject(deps.projects, params.projectId);
    const id = viewId(params.viewId);
    if (!(await deps.meta.deleteView(project.id, id))) throw await viewMissing(deps.meta, id);
    return {};
  });
  for (const [contract, pinned] of [
    [r.pinSavedView, true],
    [r.unpinSavedView, false],
  ] as const) {
    registerRoute(app, contract, async ({ params }) => {
      const project = requireProject(deps.projects, params.projectId);
      const id = viewId(params.viewId);
      if (!(await deps.meta.setPinned(project.id, id, pinned))) throw await viewMissing(deps.meta, id);
      return {};
    });
  }

  // ---- pinned facets (per user) ----
  registerRoute(app, r.pinnedFacets, async (_input, req) => ({ attrs: await deps.meta.pinnedFacets(req.user!.id) }));
  registerRoute(app, r.pinFacet, async ({ body }, req) => {
    await deps.meta.setFacetPinned(req.user!.id, canonicalAttr(body.attr), true);
    return { attr: canonicalAttr(body.attr) };
  });
  registerRoute(app, r.unpinFacet, async ({ body }, req) => {
    await deps.meta.setFacetPinned(req.user!.id, canonicalAttr(body.attr), false);
    return {};
  });
}

/** A tracing query route: `:projectId` in the path and the range params in the query string. */
type RangeContract = AnyRouteContract & {
  params: z.ZodType<{ projectId: string }>;
  query: z.ZodType<z.output<typeof SystemsParams>, unknown>;
};

const viewNotFound = () => new AppError('not_found', 'view_not_found', 'Saved view not found.');
/** A view not in this project: 403 when it is another project's, else 404, as every per-id route answers. */
async function viewMissing(meta: TracingMetaStore, id: number): Promise<AppError> {
  return (await meta.viewExists(id)) ? new AppError('forbidden', 'forbidden', 'access denied') : viewNotFound();
}
function viewId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw viewNotFound();
  return Number(raw);
}

function clampLimit(limit: number | undefined, max: number, fallback = 100): number {
  if (!limit) return fallback;
  return Math.min(limit, max);
}

/**
 * Time params (reference §5.2): Unix seconds, RFC 3339 (zone required), compact
 * `YYYYMMDDTHHMMSS` (UTC) or compact with an offset `YYYYMMDDTHHMMSS±hh:mm`.
 */
export function parseTimeParam(name: string, raw: string): Date {
  let ms = NaN;
  if (/^\d{1,12}$/.test(raw)) ms = Number(raw) * 1000;
  else if (raw[4] === '-' && /(Z|[+-]\d\d:\d\d)$/i.test(raw)) ms = Date.parse(raw);
  else {
    const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)((?:[+-]\d\d:\d\d)?)$/.exec(raw);
    if (m) ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] || 'Z'}`);
  }
  if (!Number.isFinite(ms))
    throw invalidInput('invalid_time', `${name} must be an RFC 3339 time, Unix seconds or YYYYMMDDTHHMMSS`);
  return new Date(ms);
}

/**
 * A query the backend refused is the caller's query: 400 invalid_query with the generated text
 * (`details.query`); any other error as it is.
 */
export function storeRefusal(err: unknown): unknown {
  if (!(err instanceof StoreQueryError)) return err;
  const refused = invalidInput('invalid_query', err.message);
  refused.details = { query: err.queryText };
  return refused;
}

/** The range scope of a tracing query request: its times (400 `invalid_time`), systems and group. */
export function scopeOf(projectId: number, p: z.infer<typeof SystemsParams>): RangeScope {
  const gte = parseTimeParam('time_gte', p.time_gte);
  const lt = parseTimeParam('time_lt', p.time_lt);
  if (lt.getTime() <= gte.getTime()) throw invalidInput('invalid_time', 'time_lt must be after time_gte');
  if (lt.getTime() - gte.getTime() > MAX_RANGE_MS)
    throw invalidInput('invalid_time', 'the time range is too long (at most 400 days)');
  const systems = p.system ?? [];
  if (systems.length > 50 || systems.some((s) => s.length > 200))
    throw invalidInput('invalid_system', 'too many or too long system values');
  return { projectId, gte, lt, systems, ...(p.group_id !== undefined ? { groupId: checkedU64(p.group_id) } : {}) };
}

function checkedU64(text: string): bigint {
  const v = BigInt(text);
  if (v > 0xffffffffffffffffn) throw invalidInput('invalid_input', 'group_id is out of range');
  return v;
}
