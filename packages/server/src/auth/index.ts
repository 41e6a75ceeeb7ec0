// Auth: users (synced from config, passwords hashed), sign-in, and the session cookie that every
// /api/v1 route but sign-in requires. Owns no project rules.
export { createAuthService, DEFAULT_USER, type AuthService } from './auth.service';
export { registerAuth } from './auth.routes';
export { createSessionSigner } from './session';
export { createUsersStore } from './users.store';
export { hashPassword, verifyPassword } from './password';
