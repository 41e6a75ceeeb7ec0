import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../config';
import { identityFromClaims } from './ssoClaims';
import { SsoFailure } from './ssoFailure';

const provider = (extra: Record<string, unknown> = {}) =>
  ConfigSchema.parse({ auth: { oidc: [{ id: 'p', issuer_url: 'https://idp.example', client_id: 'c', ...extra }] } })
    .auth.oidc[0];

const failure = (claims: Record<string, unknown>, extra?: Record<string, unknown>) => {
  try {
    identityFromClaims(claims, provider(extra));
    return null;
  } catch (err) {
    return err instanceof SsoFailure ? err.code : err;
  }
};

describe('identity from OIDC claims', () => {
  it.each([
    [{ email: 'Ada@Example.com', name: 'Ada Lovelace' }, {}, { email: 'ada@example.com', name: 'Ada Lovelace' }],
    [{ email: 'ada@example.com', preferred_username: 'ada' }, {}, { email: 'ada@example.com', name: 'ada' }],
    [{ email: 'ada.l@example.com' }, {}, { email: 'ada.l@example.com', name: 'ada.l' }],
    [
      { upn: 'ada@corp.example', display: 'Countess', name: 'x' },
      { email_claim: 'upn', name_claim: 'display' },
      { email: 'ada@corp.example', name: 'Countess' },
    ],
    [{ email: 'ada@example.com', email_verified: true, name: '  ' }, {}, { email: 'ada@example.com', name: 'ada' }],
  ])('%j with %j -> %j', (claims, extra, expected) => {
    expect(identityFromClaims(claims, provider(extra))).toEqual(expected);
  });

  it.each([
    [{ name: 'No mail' }, {}, 'email_missing'],
    [{ email: 42 }, {}, 'email_missing'],
    [{ email: '' }, {}, 'email_missing'],
    [{ email: 'not-an-address' }, {}, 'email_missing'],
    [{ email: 'ada@example.com', email_verified: false }, {}, 'email_unverified'],
    [{ email: 'ada@other.org' }, { allowed_domains: ['example.com'] }, 'domain_not_allowed'],
    [{ email: 'ada@sub.example.com' }, { allowed_domains: ['example.com'] }, 'domain_not_allowed'],
  ])('%j with %j is refused: %s', (claims, extra, code) => {
    expect(failure(claims, extra)).toBe(code);
  });

  it('does not read email_verified for a custom e-mail claim', () => {
    expect(failure({ upn: 'ada@example.com', email_verified: false }, { email_claim: 'upn' })).toBeNull();
  });
});
