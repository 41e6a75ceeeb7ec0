import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  prometheusSessionRoutes,
  prometheusTokenRoutes,
  type AnyRouteContract,
  type PromErrorResponse,
} from '@lantern/shared';
import { AppError } from '../../http/appError';
import { registerRawRoute } from '../../http/routes';
import { projectFromHeaders } from '../../ingest';
import { requireProject, type ProjectsService } from '../../projects';
import { asApiError, PromApiError, type createPrometheusApi } from './prometheusApi';
import { PromParams } from './promParams';

type PrometheusApi = ReturnType<typeof createPrometheusApi>;

/**
 * The Prometheus HTTP API routes (prometheusRoutes in packages/shared): the same endpoints under
 * `/api/prometheus/api/v1/` for a project token (Bearer, or Basic with the token as password) and
 * under `/api/prometheus/:projectId/api/v1/` for the signed-in session. Binds contracts to the
 * answers of prometheusApi.ts; errors are rendered in Prometheus's shape here.
 */
export async function registerPrometheusRoutes(
  app: FastifyInstance,
  deps: { projects: ProjectsService; api: PrometheusApi },
): Promise<void> {
  await app.register(async (scope) => {
    // Grafana POSTs its queries form-encoded, as Prometheus's own UI does.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );
    const bind = (
      contract: AnyRouteContract,
      projectOf: (req: FastifyRequest, params: Record<string, string>) => number,
    ) => {
      const endpoint = contract.path.slice(contract.path.indexOf('/api/v1/') + '/api/v1/'.length);
      registerRawRoute(scope, contract, async (input, req, reply) => {
        try {
          const params = input.params as Record<string, string>;
          const projectId = projectOf(req, params);
          const p = PromParams.of(req.url, req.body);
          const api = deps.api;
          switch (endpoint) {
            case 'query':
              return await api.query(projectId, p);
            case 'query_range':
              return await api.queryRange(projectId, p);
            case 'labels':
              return await api.labels(projectId, p);
            case 'label/:name/values':
              return await api.labelValues(projectId, params.name ?? '', p);
            case 'series':
              return await api.series(projectId, p);
            case 'metadata':
              return await api.metadata(projectId, p);
            case 'status/buildinfo':
              return api.buildInfo();
            case 'rules':
              return { status: 'success', data: { groups: [] } };
            case 'alerts':
              return { status: 'success', data: { alerts: [] } };
            case 'query_exemplars':
              return { status: 'success', data: [] };
            default:
              throw new Error(`no handler for ${contract.path}`);
          }
        } catch (err) {
          return sendError(reply, err);
        }
      });
    };
    for (const c of Object.values(prometheusTokenRoutes))
      bind(c, (req) => projectFromHeaders(deps.projects, (name) => header(req.headers[name])).id);
    for (const c of Object.values(prometheusSessionRoutes))
      bind(c, (_req, params) => requireProject(deps.projects, params.projectId).id);
  });
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Prometheus's error body: `{status: "error", errorType, error}`. */
function sendError(reply: FastifyReply, err: unknown): FastifyReply {
  const e = err instanceof AppError ? appError(err) : asApiError(err);
  if (!(e instanceof PromApiError)) throw e;
  const body: PromErrorResponse = { status: 'error', errorType: e.errorType, error: e.message };
  if (e.status === 503) reply.header('Retry-After', '5');
  return reply.code(e.status).send(body);
}

function appError(err: AppError): PromApiError {
  const errorType =
    err.status === 401
      ? 'unauthorized'
      : err.status === 404
        ? 'not_found'
        : err.status === 400
          ? 'bad_data'
          : 'internal';
  return new PromApiError(err.status, errorType, err.message);
}
