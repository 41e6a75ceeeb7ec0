import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import { apiRoutes, jsonNestingDepth, MAX_BODY_DEPTH } from '@lantern/shared';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import type { Logger } from 'pino';
import { AppError } from './appError';
import { installErrorHandler } from './errorHandler';
import { refuseNulText } from './nulText';
import { registerRoute } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as it was registered, with the id of its contract (none: not from a contract). */
    registeredRoutes: RegisteredRoute[];
    /** Every JSON answer is parsed by its contract's response schema before it is sent (tests). */
    checkAnswers: boolean;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  contractId: string | undefined;
}

/** The Fastify instance with what every route relies on: error rendering, cookies, JSON limits. */
export interface HttpAppOptions {
  /**
   * Parse every success answer by its contract's response schema, as a client would receive it; an
   * answer that breaks its contract is a 500 `answer_breaks_contract` naming the fields. For tests
   * (LANTERN_CHECK_ANSWERS=1): it costs a parse per answer.
   */
  checkAnswers?: boolean;
}

/**
 * A request Node's HTTP parser refuses before Fastify sees it (headers or URL over 16 KB, a malformed
 * request line, a timeout) is answered `{code, message}` like every other error (Fastify's default
 * body has no `code`), then the connection is closed.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request line and headers are larger than 16 KB.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'bad_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ code, message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}

const requireModule = createRequire(import.meta.url);
type Factory = (...args: unknown[]) => unknown;
let validator: Factory | undefined;
let serializer: Factory | undefined;
/**
 * Fastify's schema compilers (ajv, fast-json-stringify), loaded when a route first has a schema to
 * compile. Routes read their input through their contracts' zod schemas (routes.ts) and answer with
 * JSON.stringify unless registered with `serialize`; Fastify otherwise loads both at every start,
 * ~350 ms of CPU (docs/benchmarks.md "Session 28").
 */
const LAZY_SCHEMA_COMPILERS = {
  buildValidator: (...args: unknown[]) =>
    (validator ??= (requireModule('@fastify/ajv-compiler') as () => Factory)())(...args),
  buildSerializer: (...args: unknown[]) =>
    (serializer ??= (requireModule('@fastify/fast-json-stringify-compiler') as () => Factory)())(...args),
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export async function createHttpApp(log: Logger, opts: HttpAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS },
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it the app is typed with pino's Logger, which FastifyInstance (the type every route takes) does not accept
    loggerInstance: log as FastifyBaseLogger,
    // Per-request lines would dominate the log under ingest load; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from a proxy on this host or a private network: a client
    // reaching Lantern directly cannot pick its own address (login rate limiting counts per address).
    trustProxy: 'loopback,linklocal,uniquelocal',
    clientErrorHandler,
    // The router's own refusals (a malformed percent-escape, a path segment over 100 characters)
    // answered Fastify's body: its internal code, `error`, `statusCode`, and the whole path echoed.
    frameworkErrors: (err, _req, frameworkReply) => {
      // Typed by the server's generics, which a plain answer does not need.
      const reply = frameworkReply as unknown as FastifyReply;
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply
        .code(tooLong ? 414 : 400)
        .send(
          tooLong
            ? { code: 'uri_too_long', message: 'A segment of the URL path is longer than 100 characters.' }
            : { code: 'bad_url', message: 'The URL path is not valid (a malformed %-escape).' },
        );
    },
  });
  const registered: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registered);
  app.decorate('checkAnswers', opts.checkAnswers ?? false);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      registered.push({ method, url: route.url ?? route.path, contractId: route.config?.contract?.id });
  });
  installErrorHandler(app);
  // JSON nested deeper than any contract's body is refused before it is parsed, as ingest does:
  // parsing 400k nested arrays (a 1 MB body) cost the event loop ~130 ms a request.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (jsonNestingDepth(text) > MAX_BODY_DEPTH)
      done(
        new AppError('invalid_input', 'json_too_deep', `the JSON body is nested deeper than ${MAX_BODY_DEPTH} levels`),
        undefined,
      );
    else void parseJson(req, text, done);
  });
  app.addHook('preHandler', async (req) => refuseNulText(req));
  await app.register(fastifyCookie);
  registerRoute(app, apiRoutes.health, async () => ({ status: 'ok' }));
  return app;
}
