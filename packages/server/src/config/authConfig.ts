import { z } from 'zod';

/**
 * `auth`: single sign-on providers, login rate limiting and avatars. The password users stay under
 * the top-level `users` key. OIDC keys follow the reference product's `auth.oidc` so a block written
 * for it carries over (its `claim` is read as `email_claim`).
 */
const oidcProvider = z
  .object({
    /** Used in URLs (/api/v1/sso/<id>/start): letters, digits, '-' and '_'. */
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, '-' or '_'"),
    /** The button text on the Login page. */
    display_name: z.string().default(''),
    /** The provider's issuer; its /.well-known/openid-configuration is read at start. */
    issuer_url: z.string().url(),
    client_id: z.string().min(1),
    client_secret: z.string().default(''),
    /** Empty: <site.url>/api/v1/sso/<id>/callback. Register this URL with the provider. */
    redirect_url: z.string().url().or(z.literal('')).default(''),
    /** Scopes asked for; `openid` is always added. */
    scopes: z.array(z.string().min(1)).default(['profile', 'email']),
    /** The claim holding the user's e-mail address (from the ID token, else from userinfo). */
    email_claim: z.string().min(1).default('email'),
    /** The reference's name for email_claim; read when email_claim is not given. */
    claim: z.string().min(1).optional(),
    /** The claim holding the display name; empty: `name`, then `preferred_username`. */
    name_claim: z.string().default(''),
    /** E-mail domains allowed to sign in (e.g. example.com); empty allows any. */
    allowed_domains: z.array(z.string().min(1)).default([]),
    /** Create a Lantern user at the first sign-in; false admits only users that already exist. */
    allow_sign_up: z.boolean().default(true),
  })
  .strict()
  .transform(({ claim, ...p }) => ({
    ...p,
    display_name: p.display_name || p.id,
    email_claim: claim && p.email_claim === 'email' ? claim : p.email_claim,
    allowed_domains: p.allowed_domains.map((d) => d.toLowerCase().replace(/^@/, '')),
  }));

export const authSchema = z
  .object({
    oidc: z
      .array(oidcProvider)
      .default([])
      .refine((ps) => new Set(ps.map((p) => p.id)).size === ps.length, 'oidc provider ids must be unique'),
    /** Failed sign-ins allowed per client address and per account within the window, then 429. */
    login_rate_limit: z
      .object({
        max_failures: z.number().int().min(1).default(10),
        window_seconds: z.number().int().min(1).default(300),
      })
      .strict()
      .prefault({}),
    /**
     * Avatars from gravatar.com (sends a hash of each e-mail to a third party and needs internet
     * access); off: initials only, no outside request.
     */
    gravatar: z.boolean().default(false),
  })
  .strict()
  .prefault({});

export type AuthConfig = z.infer<typeof authSchema>;
export type OidcProviderConfig = AuthConfig['oidc'][number];
