import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LoginRequest } from '@lantern/shared';
import { AppError } from '../http/appError';
import { parseInput } from '../http/parseInput';
import type { AuthService } from './auth.service';
import { SESSION_COOKIE, SESSION_TTL_SEC } from './session';
import type { UserRecord } from './users.store';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRecord | null;
  }
}

/**
 * Routes under /api/v1 that work without a session. Everything else there answers 401 without one.
 * The Vector and Prometheus remote write ingest paths authenticate with the project DSN instead (ingest/); single sign-on
 * (/api/v1/sso/...) is how a session starts.
 */
const PUBLIC_API = new Set([
  '/api/v1/users/login',
  '/api/v1/users/logout',
  '/api/v1/users/login-hint',
  '/api/v1/health',
  '/api/v1/vector/logs',
  '/api/v1/vector-logs',
  '/api/v1/prometheus/write',
]);
const PUBLIC_PREFIX = '/api/v1/sso/';

export interface SessionCookie {
  /** Sets the session cookie: HttpOnly, SameSite=Lax, Secure when the site is served over https. */
  set(reply: FastifyReply, token: string): void;
}

export function sessionCookie(secure: boolean): SessionCookie {
  return {
    set(reply, token) {
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: SESSION_TTL_SEC,
      });
    },
  };
}

export function registerAuth(app: FastifyInstance, auth: AuthService, opts: { secureCookie: boolean }): void {
  const cookie = sessionCookie(opts.secureCookie);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const path = req.url.split('?')[0];
    if (!path.startsWith('/api/v1/') || PUBLIC_API.has(path) || path.startsWith(PUBLIC_PREFIX)) return;
    req.user = await auth.userFromSession(req.cookies[SESSION_COOKIE]);
    if (!req.user) throw new AppError('unauthenticated', 'unauthenticated', 'Please sign in.');
  });

  app.post('/api/v1/users/login', async (req, reply) => {
    const body = parseInput(LoginRequest, req.body);
    const { token, current } = await auth.login(body.email, body.password, req.ip);
    cookie.set(reply, token);
    return current;
  });

  app.post('/api/v1/users/logout', async (req, reply) => {
    // Ends the session on the server too: a copy of the cookie no longer signs anyone in.
    await auth.logout(req.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secureCookie });
    return {};
  });

  app.get('/api/v1/users/current', async (req) => auth.current(req.user!));
  app.get('/api/v1/users/login-hint', async () => ({ hint: auth.loginHint() }));
}
