import * as oidc from 'openid-client';
import { authRoutes, routePath, safeReturnPath, type SsoMethodsResponse } from '@lantern/shared';
import type { AuthService } from '../auth.service';
import type { SessionSigner } from '../session';
import type { UsersStore } from '../users.store';
import { identityFromClaims } from './ssoClaims';
import { SsoFailure } from './ssoFailure';
import type { SsoProviders } from './ssoProviders';

/**
 * OpenID Connect sign-in: authorization code flow with PKCE, `state` and `nonce`. The values the
 * callback must check travel in a signed, http-only cookie that lives for the sign-in only
 * (STATE_TTL_SEC), so any server of a deployment can finish a sign-in another one started.
 */
export const STATE_COOKIE = 'lantern_sso';
export const STATE_TTL_SEC = 600;
const STATE_AUDIENCE = 'sso-state';

export interface SsoService {
  methods(): SsoMethodsResponse;
  /**
   * The address (scheme, host and port) the provider sends the browser back to (the callback,
   * under `site.url` unless `redirect_url` says otherwise); undefined for an unknown provider.
   * The state cookie must be set there, so a sign-in starts there.
   */
  callbackOrigin(id: string): URL | undefined;
  /** The provider's authorization URL and the state cookie's value. */
  start(id: string, returnTo: string): Promise<{ authorizationUrl: string; stateCookie: string }>;
  /** Finishes a sign-in: a session token and where to send the browser. Throws SsoFailure. */
  callback(
    id: string,
    query: URLSearchParams,
    stateCookie: string | undefined,
  ): Promise<{ sessionToken: string; returnTo: string }>;
}

/** Only paths of this site (shared with the Login page). */
export const safeReturnTo = safeReturnPath;

export function createSsoService(deps: {
  providers: SsoProviders;
  users: UsersStore;
  auth: AuthService;
  signer: SessionSigner;
}): SsoService {
  const { providers } = deps;
  return {
    methods() {
      providers.refreshFailed();
      return {
        methods: providers.list().map((p) => ({
          id: p.config.id,
          name: p.config.display_name,
          url: routePath(authRoutes.ssoStart, { id: p.config.id }),
          available: p.client !== null,
          ...(p.client ? {} : { reason: 'The identity provider cannot be reached.' }),
        })),
      };
    },

    callbackOrigin(id) {
      const provider = providers.get(id);
      return provider ? new URL(new URL(provider.redirectUrl).origin) : undefined;
    },

    async start(id, returnTo) {
      const provider = providers.get(id);
      if (!provider) throw new SsoFailure('unknown_provider', `no oidc provider "${id}"`);
      const client = await providers.ready(id);
      if (!client) throw new SsoFailure('provider_unavailable', provider.error ?? 'discovery failed');
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const scopes = new Set(['openid', ...provider.config.scopes]);
      const url = oidc.buildAuthorizationUrl(client, {
        redirect_uri: provider.redirectUrl,
        scope: [...scopes].join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const stateCookie = await deps.signer.signPayload(
        { p: id, s: state, n: nonce, v: verifier, r: safeReturnTo(returnTo) },
        STATE_TTL_SEC,
        STATE_AUDIENCE,
      );
      return { authorizationUrl: url.href, stateCookie };
    },

    async callback(id, query, stateCookie) {
      const provider = providers.get(id);
      if (!provider) throw new SsoFailure('unknown_provider', `no oidc provider "${id}"`);
      const error = query.get('error');
      if (error)
        throw new SsoFailure(
          'provider_denied',
          `${error}${query.get('error_description') ? `: ${query.get('error_description')}` : ''}`,
        );
      const saved = stateCookie ? await deps.signer.verifyPayload(stateCookie, STATE_AUDIENCE) : null;
      if (!saved || saved.p !== id)
        throw new SsoFailure(
          'state_missing',
          stateCookie ? 'state cookie invalid, expired or for another provider' : 'no state cookie',
        );
      if (query.get('state') !== saved.s)
        throw new SsoFailure('state_mismatch', 'the state parameter does not match the state cookie');
      const client = await providers.ready(id);
      if (!client) throw new SsoFailure('provider_unavailable', provider.error ?? 'discovery failed');

      // The URL the provider redirected to, as registered: behind a proxy the request's own URL differs.
      const currentUrl = new URL(provider.redirectUrl);
      currentUrl.search = query.toString();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
          pkceCodeVerifier: String(saved.v),
          expectedState: String(saved.s),
          expectedNonce: String(saved.n),
          idTokenExpected: true,
        });
      } catch (err) {
        throw grantFailure(err);
      }
      let claims: Record<string, unknown> = { ...tokens.claims() };
      const needUserinfo =
        claims[provider.config.email_claim] === undefined || (!provider.config.name_claim && claims.name === undefined);
      if (needUserinfo && client.serverMetadata().userinfo_endpoint) {
        try {
          claims = { ...claims, ...(await oidc.fetchUserInfo(client, tokens.access_token, String(claims.sub))) };
        } catch (err) {
          // The ID token may still carry what is needed; identityFromClaims says what is missing.
          if (claims[provider.config.email_claim] === undefined)
            throw new SsoFailure('email_missing', `userinfo failed: ${(err as Error).message}`);
        }
      }
      const identity = identityFromClaims(claims, provider.config);
      let user = await deps.users.byEmail(identity.email);
      if (!user) {
        if (!provider.config.allow_sign_up)
          throw new SsoFailure('no_account', `${identity.email} has no account and allow_sign_up is off`);
        user = await deps.users.createFromSso({ name: identity.name, email: identity.email, provider: id });
      } else if (user.sso_provider !== null && user.name !== identity.name) {
        // The provider owns a single sign-on user's name; config users keep the config's.
        await deps.users.rename(user.id, identity.name);
      }
      return { sessionToken: await deps.auth.startSession(user), returnTo: safeReturnTo(saved.r) };
    },
  };
}

/** The token exchange's failure, by what the provider or the library said. */
function grantFailure(err: unknown): SsoFailure {
  if (err instanceof oidc.ResponseBodyError) {
    if (err.error === 'invalid_client' || err.error === 'unauthorized_client')
      return new SsoFailure('client_rejected', `${err.error}: ${err.error_description ?? ''}`);
    if (err.error === 'invalid_grant')
      return new SsoFailure('code_invalid', `${err.error}: ${err.error_description ?? ''}`);
    return new SsoFailure('failed', `token endpoint: ${err.error} ${err.error_description ?? ''}`);
  }
  if (err instanceof oidc.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the client authentication (id or secret) was refused.
    const said = err.cause.map((c) => c.parameters.error ?? c.scheme).join(', ');
    if (err.status === 401) return new SsoFailure('client_rejected', `token endpoint answered 401 (${said})`);
    return new SsoFailure('failed', `token endpoint answered ${err.status} (${said})`);
  }
  if (err instanceof oidc.AuthorizationResponseError)
    return new SsoFailure('provider_denied', `${err.error}: ${err.error_description ?? ''}`);
  const message = err instanceof Error ? err.message : String(err);
  if (
    err instanceof TypeError ||
    (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
  ) {
    return new SsoFailure('provider_unavailable', `token endpoint unreachable: ${message}`);
  }
  if (err instanceof oidc.ClientError)
    return new SsoFailure('token_invalid', `${err.code ?? 'client error'}: ${message}`);
  return new SsoFailure('failed', message);
}
