import { createHash, randomBytes } from 'node:crypto';
import type { CurrentUserResponse, User } from '@lantern/shared';
import type { Config } from '../config';
import { AppError } from '../http/appError';
import type { ProjectsService } from '../projects';
import { loginKeys, type LoginLimiter } from './loginLimiter';
import { hashPassword, verifyPassword } from './password';
import { SESSION_TTL_SEC, type SessionSigner } from './session';
import type { SessionsStore } from './sessions.store';
import type { UserRecord, UsersStore } from './users.store';

export interface AuthService {
  /** Password sign-in from a client address; refused with 429 after too many failures. */
  login(email: string, password: string, address: string): Promise<{ token: string; current: CurrentUserResponse }>;
  /** A new session for a user already authenticated (by single sign-on); the session token. */
  startSession(user: UserRecord): Promise<string>;
  /** The signed-in user for a session token, or null. */
  userFromSession(token: string | undefined): Promise<UserRecord | null>;
  /** Ends the session of a token on the server (a no-op for an invalid one). */
  logout(token: string | undefined): Promise<void>;
  /** Called with the token of each session ended by sign-out on this server (the live tail closes its streams). */
  onLogout(listener: (token: string) => void): void;
  current(user: UserRecord): CurrentUserResponse;
  /** The default login, shown on the Login page while it is still the shipped default. */
  loginHint(): { email: string; password: string } | null;
}

export const DEFAULT_USER = { email: 'admin@lantern.local', password: 'lantern' };

export function createAuthService(deps: {
  config: Config;
  users: UsersStore;
  sessions: SessionsStore;
  signer: SessionSigner;
  projects: ProjectsService;
  limiter: LoginLimiter;
}): AuthService {
  // Gravatar only when the config turns it on: otherwise no page makes an outside request (the
  // web app draws initials) and no hash of an e-mail leaves the deployment.
  const avatar = (email: string) =>
    deps.config.auth.gravatar
      ? `https://www.gravatar.com/avatar/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}?d=identicon`
      : '';
  const toUser = (u: UserRecord): User => ({ id: u.id, name: u.name, email: u.email, avatar: avatar(u.email) });
  const current = (u: UserRecord): CurrentUserResponse => ({
    user: toUser(u),
    // Only signed-in vs signed-out is distinguished (spec platform §6): every user sees every project.
    projects: deps.projects.list().map((p) => ({ id: p.id, name: p.name })),
  });
  // An unknown e-mail (or a user without a password) is checked against this hash, so that its
  // answer takes as long as a wrong password's: the time does not tell which e-mails have accounts.
  const decoyHash = hashPassword(randomBytes(16).toString('hex'));
  const passwordMatches = async (user: UserRecord | undefined, password: string) => {
    if (user?.password_hash) return verifyPassword(password, user.password_hash);
    await verifyPassword(password, await decoyHash);
    return false;
  };
  const startSession = async (user: UserRecord) => {
    // Expired rows go when new ones come: the table holds about the live sessions only.
    await deps.sessions.removeExpired();
    const sessionId = await deps.sessions.create(user.id, SESSION_TTL_SEC);
    return deps.signer.sign({ userId: user.id, sessionId });
  };

  const logoutListeners: ((token: string) => void)[] = [];

  return {
    async login(email, password, address) {
      const keys = loginKeys(address, email);
      const wait = deps.limiter.retryAfterSec(keys);
      if (wait > 0) {
        throw new AppError(
          'rate_limited',
          'too_many_attempts',
          `Too many failed sign-in attempts. Try again in ${humanWait(wait)}.`,
          wait,
        );
      }
      // Counted as a failure before the password is checked, and taken back by a success: attempts
      // sent at once would otherwise all pass the limit while their hashes are being computed.
      deps.limiter.fail(keys);
      const user = await deps.users.byEmail(email.trim());
      // The same message, and the same time, for an unknown e-mail and a wrong password: no account probing.
      const matches = await passwordMatches(user, password);
      if (!user || !matches) {
        throw new AppError('invalid_input', 'invalid_credentials', 'The e-mail or password is wrong.');
      }
      deps.limiter.reset(keys);
      return { token: await startSession(user), current: current(user) };
    },
    startSession,
    async userFromSession(token) {
      if (!token) return null;
      const claims = await deps.signer.verify(token);
      if (!claims) return null;
      return (await deps.sessions.userOf(claims.sessionId, claims.userId)) ?? null;
    },
    async logout(token) {
      const claims = token ? await deps.signer.verify(token) : null;
      if (claims) await deps.sessions.remove(claims.sessionId);
      if (claims && token) for (const listener of logoutListeners) listener(token);
    },
    onLogout(listener) {
      logoutListeners.push(listener);
    },
    current,
    loginHint() {
      const isDefault = deps.config.users.some(
        (u) => u.email.toLowerCase() === DEFAULT_USER.email && u.password === DEFAULT_USER.password,
      );
      return isDefault ? { ...DEFAULT_USER } : null;
    },
  };
}

function humanWait(sec: number): string {
  if (sec < 60) return `${sec} second${sec === 1 ? '' : 's'}`;
  const min = Math.ceil(sec / 60);
  return `${min} minute${min === 1 ? '' : 's'}`;
}
