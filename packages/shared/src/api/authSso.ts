/**
 * Single sign-on failures. The server sends the browser back to the Login page with
 * `?sso_error=<code>` (never free text: a crafted link cannot put words on the Login page) and the
 * page shows the message for the code. The server logs the details.
 */
export const SSO_ERROR_MESSAGES = {
  unknown_provider: 'This single sign-on method is not configured.',
  provider_unavailable:
    'The identity provider cannot be reached right now. Try again later or sign in with your password.',
  provider_denied: 'The identity provider did not sign you in.',
  state_missing: 'The sign-in took too long or was started in another browser tab. Please try again.',
  state_mismatch: 'The sign-in could not be verified (its state did not match). Please start again from this page.',
  client_rejected:
    "The identity provider refused Lantern's client credentials. Ask an administrator to check the client id and secret.",
  code_invalid: 'The sign-in code expired or was already used. Please try again.',
  token_invalid: "The identity provider's answer could not be verified. Please try again or ask an administrator.",
  email_missing:
    'The identity provider did not send an e-mail address for your account, so Lantern cannot sign you in.',
  email_unverified: 'Your e-mail address is not verified at the identity provider.',
  domain_not_allowed: 'Your e-mail domain is not allowed to sign in to Lantern.',
  no_account: 'There is no Lantern account for your e-mail address. Ask an administrator to add you.',
  failed: 'Single sign-on failed. Please try again or ask an administrator to check the server log.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

export function ssoErrorMessage(code: string): string {
  return Object.hasOwn(SSO_ERROR_MESSAGES, code) ? SSO_ERROR_MESSAGES[code as SsoErrorCode] : SSO_ERROR_MESSAGES.failed;
}

/**
 * The page to return to after signing in, when it is a path of this site; else Home. Refuses
 * schemes, hosts, `//` and `/\` (which browsers read as a host) and API paths.
 */
export function safeReturnPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value) && !value.startsWith('/api/') ? value : '/';
}
