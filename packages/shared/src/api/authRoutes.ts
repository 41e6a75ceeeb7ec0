import { z } from 'zod';
import { EmptyResponse, route } from './contract';
import { CurrentUserResponse, LoginHintResponse, LoginRequest, LoginResponse, SsoMethodsResponse } from './users';

/** Sign-in, the current user, and single sign-on (spec platform §Users). */
export const authRoutes = {
  login: route({
    id: 'login',
    method: 'POST',
    path: '/api/v1/users/login',
    body: LoginRequest,
    response: LoginResponse,
    errors: { 400: ['invalid_credentials'], 429: ['too_many_attempts'] },
    summary: 'Sign in with e-mail and password; sets the session cookie',
    auth: 'none',
    tags: ['auth'],
  }),
  logout: route({
    id: 'logout',
    method: 'POST',
    path: '/api/v1/users/logout',
    response: EmptyResponse,
    summary: 'Sign out: ends the session on the server and clears the cookie',
    auth: 'none',
    tags: ['auth'],
  }),
  currentUser: route({
    id: 'currentUser',
    method: 'GET',
    path: '/api/v1/users/current',
    response: CurrentUserResponse,
    summary: 'The signed-in user and the projects they can see',
    tags: ['auth'],
  }),
  loginHint: route({
    id: 'loginHint',
    method: 'GET',
    path: '/api/v1/users/login-hint',
    response: LoginHintResponse,
    summary: 'The demo account to sign in with, when the server has one configured',
    auth: 'none',
    tags: ['auth'],
  }),
  ssoMethods: route({
    id: 'ssoMethods',
    method: 'GET',
    path: '/api/v1/sso/methods',
    response: SsoMethodsResponse,
    summary: 'The single sign-on methods the Login page offers',
    auth: 'none',
    tags: ['auth'],
  }),
  ssoStart: route({
    id: 'ssoStart',
    method: 'GET',
    path: '/api/v1/sso/:id/start',
    query: z.object({
      return_to: z.string().optional(),
      /** Set by the redirect from another address to the callback's (the site's): start here. */
      at_site: z.string().optional(),
    }),
    response: z.void(),
    rawResponse: {
      media: [],
      description:
        "A redirect to the identity provider (with a short-lived state cookie), or back to /login?sso_error=<code> when sign-in cannot start; opened at another address than the callback's (site.url's), first a redirect to this route there.",
    },
    status: 302,
    summary: 'Start single sign-on with a provider (a browser navigation)',
    auth: 'none',
    tags: ['auth'],
  }),
  ssoCallback: route({
    id: 'ssoCallback',
    method: 'GET',
    path: '/api/v1/sso/:id/callback',
    query: z.looseObject({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
    response: z.void(),
    rawResponse: {
      media: [],
      description:
        'A redirect to the page the sign-in started from, with the session cookie set; or to /login?sso_error=<code>.',
    },
    status: 302,
    summary: "The identity provider's redirect back to Lantern (OpenID Connect authorization code)",
    auth: 'none',
    tags: ['auth'],
  }),
};
