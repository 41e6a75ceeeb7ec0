import type { OidcProviderConfig } from '../../config';
import { SsoFailure } from './ssoFailure';

/**
 * Who signed in, from the ID token's claims merged with the userinfo answer: the e-mail from
 * `email_claim` (a non-empty address, not explicitly unverified, in an allowed domain) and the name
 * from `name_claim`, else `name`, else `preferred_username`, else the e-mail's local part.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
  provider: OidcProviderConfig,
): { email: string; name: string } {
  const raw = claims[provider.email_claim];
  if (raw === undefined || raw === null)
    throw new SsoFailure('email_missing', `claim "${provider.email_claim}" is unset`);
  if (typeof raw !== 'string') throw new SsoFailure('email_missing', `claim "${provider.email_claim}" is not a string`);
  const email = raw.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new SsoFailure(
      'email_missing',
      `claim "${provider.email_claim}" is not an e-mail address: ${JSON.stringify(raw)}`,
    );
  // Only the standard claim has a standard verification flag; providers that omit it are trusted.
  if (provider.email_claim === 'email' && claims.email_verified === false)
    throw new SsoFailure('email_unverified', `${email} is not verified`);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (provider.allowed_domains.length > 0 && !provider.allowed_domains.includes(domain)) {
    throw new SsoFailure('domain_not_allowed', `${email}: domain ${domain} is not in allowed_domains`);
  }
  const pick = (key: string) => (key && typeof claims[key] === 'string' ? claims[key].trim() : '');
  const name =
    pick(provider.name_claim) || pick('name') || pick('preferred_username') || email.slice(0, email.indexOf('@'));
  return { email, name };
}
