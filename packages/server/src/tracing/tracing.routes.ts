import type { FastifyInstance } from 'fastify';
import { normalizeTraceId, tracingRoutes } from '@lantern/shared';
import { AppError } from '../http/appError';
import { registerRoute } from '../http/routes';
import { requireProject, type ProjectsService } from '../projects';
import type { MetadataDb } from '../storage/metadata';
import type { TelemetryStore } from '../storage/telemetry';
import { registerTracingQueryRoutes } from './query/query.routes';
import { createAttrDeltasService } from './attrDeltas/attrDeltas.service';
import { registerAttrDeltasRoutes } from './attrDeltas/attrDeltas.routes';
import { registerServiceGraphRoutes } from './serviceGraph/serviceGraph.routes';
import { createServiceGraphService } from './serviceGraph/serviceGraph.service';
import { createQueryService } from './query/service';
import { createTracingMetaStore } from './savedViews.store';
import { createTracingStore } from './tracing.store';
import { buildTraceTree } from './traceTree';
import { registerTailRoutes, type TailRouteDeps } from './tail/tail.routes';

export function registerTracingRoutes(
  app: FastifyInstance,
  opts: {
    projects: ProjectsService;
    telemetry: TelemetryStore;
    db: MetadataDb;
    spansDays: number;
    tail: Pick<TailRouteDeps, 'limits' | 'sessions' | 'log'>;
  },
): void {
  const deps = { projects: opts.projects, store: createTracingStore(opts.telemetry) };
  registerTracingQueryRoutes(app, {
    projects: opts.projects,
    query: createQueryService(opts.telemetry),
    spans: deps.store,
    meta: createTracingMetaStore(opts.db),
  });
  registerAttrDeltasRoutes(app, { projects: opts.projects, deltas: createAttrDeltasService(opts.telemetry) });
  registerTailRoutes(app, { projects: opts.projects, store: opts.telemetry, spans: deps.store, ...opts.tail });
  registerServiceGraphRoutes(app, {
    projects: opts.projects,
    graph: createServiceGraphService(opts.telemetry),
    spansDays: opts.spansDays,
  });
  registerRoute(app, tracingRoutes.trace, async ({ params }) => {
    const project = requireProject(deps.projects, params.projectId);
    const traceId = requireTraceId(params.traceId);
    const tree = buildTraceTree(traceId, await deps.store.traceRows(project.id, traceId));
    if (!tree) throw new AppError('not_found', 'trace_not_found', `Trace "${traceId}" not found. Try again later.`);
    return tree;
  });

  registerRoute(app, tracingRoutes.traceSpan, async ({ params }) => {
    const project = requireProject(deps.projects, params.projectId);
    const traceId = requireTraceId(params.traceId);
    const spanId = requireSpanId(params.spanId);
    const span = await deps.store.span(project.id, traceId, spanId);
    if (!span) throw new AppError('not_found', 'span_not_found', `Span ${spanId} of trace "${traceId}" not found.`);
    return { span };
  });

  registerRoute(app, tracingRoutes.traceSearch, async ({ rawQuery }) => {
    const traceId = requireTraceId(rawQuery.trace_id);
    const found = await deps.store.findTrace(
      deps.projects.list().map((p) => p.id),
      traceId,
    );
    if (!found) throw new AppError('not_found', 'trace_not_found', `Trace "${traceId}" not found.`);
    return { span: found };
  });
}

function requireTraceId(raw: unknown): string {
  const id = typeof raw === 'string' ? normalizeTraceId(raw) : null;
  if (!id)
    throw new AppError(
      'invalid_input',
      'invalid_trace_id',
      'trace id must be 32 hex characters, a dashed UUID, or 16 hex characters',
    );
  return id;
}

/** Span ids are decimal uint64 in the API (reference query §0.3); 16 hex chars are accepted too. */
function requireSpanId(raw: string): bigint {
  if (/^\d{1,20}$/.test(raw) && BigInt(raw) <= 0xffffffffffffffffn) return BigInt(raw);
  if (/^[0-9a-fA-F]{16}$/.test(raw)) return BigInt('0x' + raw);
  throw new AppError('invalid_input', 'invalid_span_id', 'span id must be a decimal uint64 or 16 hex characters');
}
