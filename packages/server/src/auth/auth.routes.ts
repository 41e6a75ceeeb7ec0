import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authRoutes, SESSION_API_PREFIX } from '@lantern/shared';
import { AppError } from '../http/appError';
import { registerRoute } from '../http/routes';
import type { AuthService } from './auth.service';
import { SESSION_COOKIE, SESSION_TTL_SEC } from './session';
import type { UserRecord } from './users.store';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRecord | null;
  }
}

/**
 * A route needs a session when its contract says `auth: 'session'`. Routes whose contract says
 * `none` (sign-in, health, single sign-on, the API description) or `dsn` (ingest: the project DSN,
 * checked in ingest/) do not. A path under /api/v1/ that no route serves answers 401 without a session,
 * so an unknown API path tells nothing to a stranger.
 */
function needsSession(req: FastifyRequest): boolean {
  const contract = req.routeOptions.config?.contract;
  if (contract) return contract.auth === 'session';
  return req.url.startsWith(SESSION_API_PREFIX);
}

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
    if (!needsSession(req)) return;
    req.user = await auth.userFromSession(req.cookies[SESSION_COOKIE]);
    if (!req.user) throw new AppError('unauthenticated', 'unauthenticated', 'Please sign in.');
  });

  registerRoute(app, authRoutes.login, async (input, req, reply) => {
    const { token, current } = await auth.login(input.body.email, input.body.password, req.ip);
    cookie.set(reply, token);
    return current;
  });

  registerRoute(app, authRoutes.logout, async (_input, req, reply) => {
    // Ends the session on the server too: a copy of the cookie no longer signs anyone in.
    await auth.logout(req.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secureCookie });
    return {};
  });

  registerRoute(app, authRoutes.currentUser, async (_input, req) => auth.current(req.user!));
  registerRoute(app, authRoutes.loginHint, async () => ({ hint: auth.loginHint() }));
}
