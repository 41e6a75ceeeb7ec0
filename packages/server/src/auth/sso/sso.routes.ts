import { authRoutes, routePath } from '@lantern/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { registerRawRoute, registerRoute } from '../../http/routes';
import type { SessionCookie } from '../auth.routes';
import { SsoFailure } from './ssoFailure';
import { safeReturnTo, STATE_COOKIE, STATE_TTL_SEC, type SsoService } from './sso.service';

/** The state cookie is sent back only to the single sign-on paths (`/api/v1/sso/`). */
const SSO_PATH = authRoutes.ssoStart.path.slice(0, authRoutes.ssoStart.path.indexOf(':'));

/**
 * The single sign-on routes (authRoutes.ssoMethods, ssoStart, ssoCallback). Start and callback
 * are browser navigations: every failure sends the browser back to the Login page with a code it
 * explains (`?sso_error=`), never a JSON body or a blank page.
 */
export function registerSsoRoutes(
  app: FastifyInstance,
  deps: { sso: SsoService; cookie: SessionCookie; secureCookie: boolean; log: Logger },
): void {
  const stateCookieOpts = { path: SSO_PATH, httpOnly: true, sameSite: 'lax' as const, secure: deps.secureCookie };

  const fail = (reply: FastifyReply, id: string, err: unknown, returnTo?: string) => {
    const failure =
      err instanceof SsoFailure ? err : new SsoFailure('failed', err instanceof Error ? err.message : String(err));
    if (failure.code === 'failed') deps.log.error({ err, provider: id }, 'single sign-on failed');
    else deps.log.warn({ provider: id, code: failure.code, detail: failure.detail }, 'single sign-on refused');
    const query = new URLSearchParams({ sso_error: failure.code });
    if (returnTo && returnTo !== '/') query.set('next', returnTo);
    return reply.redirect(`/login?${query}`);
  };

  registerRoute(app, authRoutes.ssoMethods, async () => deps.sso.methods());

  registerRawRoute(app, authRoutes.ssoStart, async ({ params, rawQuery }, req, reply) => {
    const returnTo = typeof rawQuery.return_to === 'string' ? rawQuery.return_to : undefined;
    // Opened at another address than the callback's (127.0.0.1 where site.url says localhost): the
    // state cookie set here would not go to the callback ("took too long or started in another
    // tab"), so the sign-in starts over there. Once only (`at_site`): behind a proxy that does not
    // pass the Host on, the browser is already there and the cookie reaches the callback.
    const site = deps.sso.callbackOrigin(params.id);
    if (site && site.host !== req.host && rawQuery.at_site === undefined) {
      const query = new URLSearchParams({ ...(returnTo !== undefined ? { return_to: returnTo } : {}), at_site: '1' });
      return reply.redirect(`${site.origin}${routePath(authRoutes.ssoStart, { id: params.id })}?${query}`);
    }
    try {
      const { authorizationUrl, stateCookie } = await deps.sso.start(params.id, returnTo ?? '/');
      reply.setCookie(STATE_COOKIE, stateCookie, { ...stateCookieOpts, maxAge: STATE_TTL_SEC });
      return reply.redirect(authorizationUrl);
    } catch (err) {
      return fail(reply, params.id, err, safeReturnTo(returnTo));
    }
  });

  registerRawRoute(app, authRoutes.ssoCallback, async ({ params }, req, reply) => {
    const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1 || req.url.length));
    // The state is for one attempt: gone whatever the outcome.
    reply.clearCookie(STATE_COOKIE, stateCookieOpts);
    try {
      const { sessionToken, returnTo } = await deps.sso.callback(params.id, query, req.cookies[STATE_COOKIE]);
      deps.cookie.set(reply, sessionToken);
      return reply.redirect(returnTo);
    } catch (err) {
      return fail(reply, params.id, err);
    }
  });
}
