import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { installErrorHandler } from './errorHandler';

/** The Fastify instance with what every route relies on: error rendering, cookies, JSON limits. */
export async function createHttpApp(log: Logger): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    // Per-request lines would dominate the log under ingest load; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from a proxy on this host or a private network: a client
    // reaching Lantern directly cannot pick its own address (login rate limiting counts per address).
    trustProxy: 'loopback,linklocal,uniquelocal',
  });
  installErrorHandler(app);
  await app.register(fastifyCookie);
  app.get('/api/v1/health', async () => ({ status: 'ok' }));
  return app;
}
