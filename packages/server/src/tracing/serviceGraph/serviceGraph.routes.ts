import { tracingRoutes } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';
import { invalidInput } from '../../http/appError';
import { registerRoute } from '../../http/routes';
import { requireProject, type ProjectsService } from '../../projects';
import { parseTimeParam } from '../query/query.routes';
import type { GraphRange, ServiceGraphService } from './serviceGraph.service';

export interface ServiceGraphRouteDeps {
  projects: ProjectsService;
  graph: ServiceGraphService;
  /** retention.spans_days: the graph's minutes live as long as the spans. */
  spansDays: number;
}

/** `GET /api/v1/tracing/:projectId/service-graph` and its per-node / per-edge series (issue 36). */
export function registerServiceGraphRoutes(app: FastifyInstance, deps: ServiceGraphRouteDeps): void {
  const rangeOf = (projectId: number, q: { time_gte: string; time_lt: string }): GraphRange => {
    const gte = parseTimeParam('time_gte', q.time_gte);
    const lt = parseTimeParam('time_lt', q.time_lt);
    if (lt.getTime() <= gte.getTime()) throw invalidInput('invalid_time', 'time_lt must be after time_gte');
    if (lt.getTime() - gte.getTime() > deps.spansDays * 86_400_000)
      throw invalidInput(
        'invalid_time',
        `the time range is longer than the span retention (${deps.spansDays} days): nothing older is kept`,
      );
    return { projectId, gte, lt };
  };

  registerRoute(app, tracingRoutes.serviceGraph, async ({ params, query }) => {
    const project = requireProject(deps.projects, params.projectId);
    return deps.graph.graph(rangeOf(project.id, query));
  });

  registerRoute(app, tracingRoutes.serviceGraphSeries, async ({ params, query }) => {
    const project = requireProject(deps.projects, params.projectId);
    const range = rangeOf(project.id, query);
    if (query.node !== undefined) {
      if (query.client !== undefined || query.server !== undefined)
        throw invalidInput('invalid_input', 'give either node, or client and server');
      return deps.graph.series(range, { node: query.node });
    }
    if (query.client === undefined || query.server === undefined)
      throw invalidInput('invalid_input', 'give node, or client and server');
    return deps.graph.series(range, { client: query.client, server: query.server });
  });
}
