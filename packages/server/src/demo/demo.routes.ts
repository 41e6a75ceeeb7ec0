import { ingestRoutes, projectRoutes } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/appError';
import { registerRoute } from '../http/routes';
import { requireProject, type ProjectsService } from '../projects';
import { demoTraces } from './demoTraces';

/** Traces per "Send demo data" click: a few thousand spans over the last 10 minutes. */
const DEMO_TRACES = 300;

/**
 * projectRoutes.sendDemoData: generates realistic traces (with logs and exceptions
 * as span events) and sends them through the project's own OTLP/HTTP endpoint with its DSN token,
 * so the newcomer's data takes exactly the path their services' data will take.
 */
export function registerDemoRoutes(app: FastifyInstance, deps: { projects: ProjectsService }): void {
  registerRoute(app, projectRoutes.sendDemoData, async ({ params }) => {
    const project = requireProject(deps.projects, params.projectId);
    const token = project.tokens[0];
    if (!token) throw new AppError('invalid_input', 'no_token', 'This project has no ingest token to send data with.');
    const body = demoTraces({ now: Date.now(), traces: DEMO_TRACES, seed: Date.now() % 2 ** 31 });
    const res = await app.inject({
      method: 'POST',
      url: ingestRoutes.otlpTraces.path,
      headers: { 'content-type': 'application/json', 'lantern-dsn': token },
      payload: JSON.stringify(body),
    });
    if (res.statusCode !== 200)
      throw new AppError('unavailable', 'demo_ingest_failed', `Ingest answered ${res.statusCode}: ${res.body}`);
    const spans = body.resourceSpans.reduce<number>(
      (n, rs) =>
        n + (rs as { scopeSpans: { spans: unknown[] }[] }).scopeSpans.reduce((m, ss) => m + ss.spans.length, 0),
      0,
    );
    return { traces: DEMO_TRACES, spans };
  });
}
