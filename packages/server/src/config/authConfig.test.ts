import { describe, expect, it } from 'vitest';
import { loadConfig } from './loadConfig';
import { ConfigSchema } from './schema';

const withOidc = (oidc: unknown[]) => ConfigSchema.parse({ auth: { oidc } });

describe('auth config', () => {
  it('has no SSO, a 10-in-5-minutes login limit and no Gravatar by default', () => {
    expect(loadConfig({ env: {} }).auth).toEqual({
      oidc: [],
      login_rate_limit: { max_failures: 10, window_seconds: 300 },
      gravatar: false,
    });
  });

  it('fills provider defaults and reads the reference `claim` key as email_claim', () => {
    const [p] = withOidc([
      {
        id: 'keycloak',
        issuer_url: 'http://localhost:8080/realms/uptrace',
        client_id: 'uptrace',
        client_secret: 's',
        claim: 'mail',
      },
    ]).auth.oidc;
    expect(p).toEqual({
      id: 'keycloak',
      display_name: 'keycloak',
      issuer_url: 'http://localhost:8080/realms/uptrace',
      client_id: 'uptrace',
      client_secret: 's',
      redirect_url: '',
      scopes: ['profile', 'email'],
      email_claim: 'mail',
      name_claim: '',
      allowed_domains: [],
      allow_sign_up: true,
    });
    const [q] = withOidc([
      {
        id: 'g',
        issuer_url: 'https://accounts.google.com',
        client_id: 'c',
        email_claim: 'upn',
        claim: 'mail',
        allowed_domains: ['@Example.COM'],
      },
    ]).auth.oidc;
    expect(q.email_claim).toBe('upn');
    expect(q.allowed_domains).toEqual(['example.com']);
  });

  it('reports bad providers by key', () => {
    const r = ConfigSchema.safeParse({
      auth: {
        oidc: [
          { id: 'has space', issuer_url: 'not a url', client_id: '' },
          { id: 'a', issuer_url: 'https://x', client_id: 'c', typo: 1 },
        ],
      },
    });
    const keys = r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
    expect(keys).toEqual(
      expect.arrayContaining(['auth.oidc.0.id', 'auth.oidc.0.issuer_url', 'auth.oidc.0.client_id', 'auth.oidc.1']),
    );
    const dup = ConfigSchema.safeParse({
      auth: {
        oidc: [
          { id: 'a', issuer_url: 'https://x', client_id: 'c' },
          { id: 'a', issuer_url: 'https://y', client_id: 'c' },
        ],
      },
    });
    expect(dup.success ? '' : dup.error.issues[0].message).toBe('oidc provider ids must be unique');
  });
});
