import {
  AttrKeysParams,
  AttrValuesParams,
  BUILTIN_FIELDS,
  canonicalAttr,
  foldArrayParams,
  GroupsParams,
  GroupStatsParams,
  PercentilesParams,
  PinnedFacetInput,
  SavedViewInput,
  SpansParams,
  SystemsParams,
  TimeseriesParams,
  type SpansResponse,
} from '@lantern/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, invalidInput } from '../../http/appError';
import { parseInput } from '../../http/parseInput';
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
const P = '/api/v1/tracing/:projectId';

/** The tracing query endpoints (reference query §2, §6). */
export function registerTracingQueryRoutes(app: FastifyInstance, deps: QueryRouteDeps): void {
  type Req = FastifyRequest<{ Params: { projectId: string } }>;
  const input = <S extends z.ZodType>(schema: S, req: Req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const params = parseInput(schema, foldArrayParams(req.query)) as z.infer<S> & z.infer<typeof SystemsParams>;
    return { project, params, scope: scopeOf(project.id, params), query: params.query ?? '' };
  };
  /** A query the backend refused is the caller's query: 400 invalid_query with the generated text. */
  const get = (path: string, handler: (req: Req) => Promise<unknown>) =>
    app.get(path, async (req: Req, reply: FastifyReply) => {
      try {
        return await handler(req);
      } catch (err) {
        if (err instanceof StoreQueryError)
          return reply.status(400).send({ code: 'invalid_query', message: err.message, query: err.queryText });
        throw err;
      }
    });

  get(`${P}/systems`, async (req) => {
    const { scope, query } = input(SystemsParams, req);
    return deps.query.systems(scope, query);
  });

  get(`${P}/groups`, async (req) => {
    const { scope, query, params } = input(GroupsParams, req);
    return deps.query.groups(scope, query, {
      sortBy: params.sort_by,
      sortDesc: params.sort_desc,
      limit: clampLimit(params.limit, 1000, 1000),
    });
  });

  get(`${P}/group-stats`, async (req) => {
    const { scope, query, params } = input(GroupStatsParams, req);
    if (params.column.length === 0 || params.column.length > 20)
      throw invalidInput('invalid_input', '"column" query param is required (at most 20)');
    const { errors, answer } = await deps.query.groupStats(scope, query, params.column);
    if (errors.length) throw invalidInput('invalid_column', errors.join('; '));
    return answer;
  });

  get(`${P}/percentiles`, async (req) => {
    const { scope, query } = input(PercentilesParams, req);
    return deps.query.percentiles(scope, query);
  });

  get(`${P}/spans`, async (req): Promise<SpansResponse> => {
    const { project, scope, query, params } = input(SpansParams, req);
    const limit = clampLimit(params.limit, 1000, 10);
    const page = Math.max(1, params.page ?? 1);
    if ((page - 1) * limit > 100_000) throw invalidInput('invalid_input', 'page is too deep: narrow the query instead');
    const r = await deps.query.spanPage(scope, query, {
      sortBy: params.sort_by,
      sortDesc: params.sort_desc,
      page,
      limit,
    });
    const spans = await deps.spans.spansByIds(project.id, r.ids);
    return { spans, count: r.count, hasMore: page * limit < r.count, order: r.order, query: r.query };
  });

  get(`${P}/timeseries`, async (req) => {
    const { scope, query } = input(TimeseriesParams, req);
    return deps.query.timeseries(scope, query);
  });

  get(`${P}/attr-keys`, async (req) => {
    const { scope, query, params } = input(AttrKeysParams, req);
    const opts = { kind: params.kind, withColumns: params.with_columns, func: params.func };
    return deps.query.attrKeys(scope, query, await deps.meta.pinnedFacets(req.user!.id), opts);
  });

  get(`${P}/attr-values`, async (req) => {
    const { scope, query, params } = input(AttrValuesParams, req);
    const key = canonicalAttr(params.attr_key);
    const builtin = BUILTIN_FIELDS[key];
    if (key.startsWith('.') && (!builtin || builtin.aggregate))
      throw invalidInput('invalid_attr_key', `"${params.attr_key}" has no per-span values`);
    return deps.query.attrValues(scope, query, key, params.search_input);
  });

  // ---- saved views ----
  app.get<{ Params: { projectId: string } }>(`${P}/saved-views`, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    return { views: await deps.meta.listViews(project.id) };
  });
  app.post<{ Params: { projectId: string } }>(`${P}/saved-views`, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    const body = parseInput(SavedViewInput, req.body ?? {});
    return { view: await deps.meta.createView(project.id, req.user!.id, body) };
  });
  app.delete<{ Params: { projectId: string; viewId: string } }>(`${P}/saved-views/:viewId`, async (req) => {
    const project = requireProject(deps.projects, req.params.projectId);
    if (!(await deps.meta.deleteView(project.id, viewId(req.params.viewId)))) throw viewNotFound();
    return {};
  });
  for (const state of ['pinned', 'unpinned'] as const) {
    app.put<{ Params: { projectId: string; viewId: string } }>(`${P}/saved-views/:viewId/${state}`, async (req) => {
      const project = requireProject(deps.projects, req.params.projectId);
      if (!(await deps.meta.setPinned(project.id, viewId(req.params.viewId), state === 'pinned'))) throw viewNotFound();
      return {};
    });
  }

  // ---- pinned facets (per user) ----
  app.get('/api/v1/pinned-facets', async (req) => ({ attrs: await deps.meta.pinnedFacets(req.user!.id) }));
  app.post('/api/v1/pinned-facets', async (req) => {
    const { attr } = parseInput(PinnedFacetInput, req.body ?? {});
    await deps.meta.setFacetPinned(req.user!.id, canonicalAttr(attr), true);
    return { attr: canonicalAttr(attr) };
  });
  app.delete('/api/v1/pinned-facets', async (req) => {
    const { attr } = parseInput(PinnedFacetInput, req.body ?? {});
    await deps.meta.setFacetPinned(req.user!.id, canonicalAttr(attr), false);
    return {};
  });
}

const viewNotFound = () => new AppError('not_found', 'view_not_found', 'Saved view not found.');
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

function scopeOf(projectId: number, p: z.infer<typeof SystemsParams>): RangeScope {
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
