import { tailRoutes } from '@lantern/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError, invalidInput } from '../../http/appError';
import { registerRawRoute } from '../../http/routes';
import { requireProject, type ProjectsService } from '../../projects';
import { StoreQueryError, type TelemetryStore } from '../../storage/telemetry';
import { compileQuery } from '../query/compile';
import type { TracingStore } from '../tracing.store';
import { createTailHub, type TailLimits } from './tailHub';
import { matchesSql, parseCursor, type Cursor } from './tailSql';

/** How the tail knows sessions: the token of a request, whether it still signs in, and sign-outs. */
export interface TailSessions {
  tokenOf(req: FastifyRequest): string;
  alive(token: string): Promise<boolean>;
  onSignOut(listener: (token: string) => void): void;
}

export interface TailRouteDeps {
  projects: ProjectsService;
  store: TelemetryStore;
  spans: TracingStore;
  limits: TailLimits;
  sessions: TailSessions;
  log: Pick<Logger, 'warn'>;
}

/** `GET /api/v1/tracing/:projectId/tail` (shared tailRoutes): the live tail as Server-Sent Events. */
export function registerTailRoutes(app: FastifyInstance, deps: TailRouteDeps): void {
  const hub = createTailHub({
    store: deps.store,
    spans: deps.spans,
    limits: deps.limits,
    sessionAlive: (token) => deps.sessions.alive(token),
    log: deps.log,
  });
  deps.sessions.onSignOut((token) => hub.closeSession(token));
  // Before the server waits for its connections to end: open tails would never end by themselves.
  app.addHook('preClose', async () => hub.closeAll());

  registerRawRoute(app, tailRoutes.tracingTail, async (input, req, reply) => {
    const project = requireProject(deps.projects, input.params.projectId);
    const systems = input.query.system ?? [];
    if (systems.length > 50 || systems.some((s) => s.length > 200))
      throw invalidInput('invalid_system', 'too many or too long system values');
    const q = compileQuery(input.query.query ?? '', 'filters', { minutes: 1 });
    const bad = q.parts.find((p) => p.error);
    if (bad) throw invalidInput('invalid_query', `${bad.query}: ${bad.error}`);
    const lastId = req.headers['last-event-id'];
    let pos: Cursor;
    if (typeof lastId === 'string' && lastId !== '') {
      const parsed = parseCursor(lastId);
      if (!parsed) throw invalidInput('invalid_cursor', 'Last-Event-ID is not a cursor of this tail');
      pos = parsed;
    } else pos = await hub.startCursor();
    // The filters as the engine takes them, on an empty window: a query it refuses is a 400 now.
    try {
      const empty = { endUs: 0n, tminUs: pos.us, tmaxUs: pos.us, limit: 1 };
      await deps.store.query(matchesSql({ projectId: project.id, systems, q, after: pos, ...empty }));
    } catch (err) {
      if (err instanceof StoreQueryError) throw invalidInput('invalid_query', err.message);
      throw err;
    }
    const refusal = hub.refusal(req.user!.id);
    if (refusal) throw new AppError('rate_limited', 'too_many_streams', refusal);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // Proxies (nginx) pass events on at once instead of buffering them.
      'x-accel-buffering': 'no',
    });
    res.write(': live tail\n\n');
    const stream = {
      userId: req.user!.id,
      session: deps.sessions.tokenOf(req),
      projectId: project.id,
      systems,
      q,
      pos,
      sink: {
        write: (text: string) => void res.write(text),
        backlog: () => res.writableLength,
        end: () => res.end(),
      },
    };
    res.on('close', () => hub.close(stream));
    hub.open(stream);
    return reply;
  });
}
