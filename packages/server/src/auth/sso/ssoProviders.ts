import * as oidc from 'openid-client';
import { authRoutes, routePath } from '@lantern/shared';
import type { Logger } from 'pino';
import type { OidcProviderConfig } from '../../config';

/**
 * The configured OIDC providers and their discovered metadata. Discovery runs at start with a
 * short timeout; a provider that cannot be reached then does not stop the server: it is listed as
 * unavailable (with the reason, also logged) and discovery is tried again when someone uses it,
 * at most every RETRY_MS.
 */
export interface SsoProvider {
  config: OidcProviderConfig;
  redirectUrl: string;
  /** Null until discovery succeeded. */
  client: oidc.Configuration | null;
  /** Why the provider is unavailable (null when available). */
  error: string | null;
}

export interface SsoProviders {
  list(): SsoProvider[];
  get(id: string): SsoProvider | undefined;
  /** The provider's client, trying discovery again first when it failed before; null if it still fails. */
  ready(id: string): Promise<oidc.Configuration | null>;
  /** Tries again, in the background, the providers that failed more than RETRY_MS ago. */
  refreshFailed(): void;
}

const DISCOVERY_TIMEOUT_SEC = 5;
const RETRY_MS = 30_000;

export async function createSsoProviders(
  configs: OidcProviderConfig[],
  siteUrl: string,
  log: Logger,
): Promise<SsoProviders> {
  const site = siteUrl.replace(/\/$/, '');
  const providers = new Map<string, SsoProvider & { lastTry: number; pending: Promise<void> | null }>();
  for (const config of configs) {
    const redirectUrl = config.redirect_url || `${site}${routePath(authRoutes.ssoCallback, { id: config.id })}`;
    providers.set(config.id, {
      config,
      redirectUrl,
      client: null,
      error: 'not discovered yet',
      lastTry: 0,
      pending: null,
    });
  }

  const discover = (p: SsoProvider & { lastTry: number; pending: Promise<void> | null }): Promise<void> => {
    if (p.pending) return p.pending;
    p.lastTry = Date.now();
    const insecure = new URL(p.config.issuer_url).protocol === 'http:';
    p.pending = oidc
      .discovery(
        new URL(p.config.issuer_url),
        p.config.client_id,
        { redirect_uris: [p.redirectUrl], response_types: ['code'] },
        p.config.client_secret ? oidc.ClientSecretBasic(p.config.client_secret) : oidc.None(),
        { timeout: DISCOVERY_TIMEOUT_SEC, execute: insecure ? [oidc.allowInsecureRequests] : [] },
      )
      .then(
        (client) => {
          p.client = client;
          p.error = null;
          if (insecure)
            log.warn(
              { provider: p.config.id, issuer: p.config.issuer_url },
              'OIDC provider is reached over plain http: use https outside local testing',
            );
          log.info({ provider: p.config.id, issuer: p.config.issuer_url }, 'OIDC provider ready');
        },
        (err: unknown) => {
          p.error = describeDiscoveryError(err);
          log.warn(
            { provider: p.config.id, issuer: p.config.issuer_url, reason: p.error },
            'OIDC provider unavailable: its sign-in method is listed as unavailable',
          );
        },
      )
      .finally(() => {
        p.pending = null;
      });
    return p.pending;
  };

  await Promise.all([...providers.values()].map(discover));

  return {
    list: () => [...providers.values()],
    get: (id) => providers.get(id),
    async ready(id) {
      const p = providers.get(id);
      if (!p) return null;
      if (!p.client && (p.pending || Date.now() - p.lastTry >= 1000)) await discover(p);
      return p.client;
    },
    refreshFailed() {
      for (const p of providers.values()) if (!p.client && Date.now() - p.lastTry >= RETRY_MS) void discover(p);
    },
  };
}

function describeDiscoveryError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return `discovery timed out after ${DISCOVERY_TIMEOUT_SEC} s`;
  const causeText = cause instanceof Error ? `: ${(cause as { code?: string }).code ?? cause.message}` : '';
  return `${err.message}${causeText}`;
}
