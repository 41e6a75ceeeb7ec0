// Auth: users (synced from config, passwords hashed; created at a first single sign-on), password
// sign-in with rate limiting, OpenID Connect sign-in (sso/), and server-side sessions behind the
// cookie that every /api/v1 route but sign-in requires. Owns no project rules.
export { createAuthService, DEFAULT_USER, type AuthService } from './auth.service';
export { authSessionsMigration, usersMigration, type AuthTables } from './auth.migration';
export { registerAuth, sessionCookie } from './auth.routes';
export { createLoginLimiter, type LoginLimiter } from './loginLimiter';
export { createSessionSigner, SESSION_COOKIE } from './session';
export { createSessionsStore } from './sessions.store';
export { createUsersStore } from './users.store';
export { hashPassword, verifyPassword } from './password';
export { createSsoProviders } from './sso/ssoProviders';
export { createSsoService } from './sso/sso.service';
export { registerSsoRoutes } from './sso/sso.routes';
